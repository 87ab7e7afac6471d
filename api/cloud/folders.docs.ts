import { prose } from '../http/docs';

/** Long OpenAPI descriptions of folders.ts, kept out of its table. */

/** Of both contents listings (the root's, a folder's). */
export const folderContentsDoc = prose`
  Folders first, then files; sort by name (case-insensitive, default), size or date (last change), asc (default) or
  desc; paginated with limit and the opaque cursor.
`;

export const getFoldersSearchDoc = prose`
  Live items whose name contains q (case-insensitive), of a type (folder or a file category), created by ownerId, last
  changed in [modifiedFrom, modifiedBefore), of a size in [minSize, maxSize] bytes (a size bound means files only),
  everywhere or within folderId's subtree; by name, a keyset page at a time. Filters combine with AND; a reversed window
  or size range answers 400. A name part is served by a trigram index, so a page stays fast on a drive of 100,000 files.
`;

export const getFoldersSharedWithMeDoc = prose`
  Live files other members shared with the caller (member shares naming them, not revoked), each once, the most recently
  shared first. Link shares are addresses, not listed here.
`;

export const getFoldersTrashDoc = prose`
  What was deleted, newest first: a trashed folder stands for its subtree. Each entry says when the retention purge
  deletes it.
`;

export const patchFoldersIdDoc = prose`
  A name taken in its parent is 409 \`name_taken\`. Move folders with POST /api/cloud/files/bulk-move (folderIds).
`;

export const postFoldersIdRestoreDoc = prose`
  With everything trashed with it, into its parent or the root; a name taken since becomes "name (2)". 409
  \`trashed_with_folder\` for a folder trashed with its parent.
`;

export const deleteFoldersIdDoc = prose`
  The folder and its whole subtree go to the trash; the retention purge deletes them and their objects after
  CLOUD_TRASH_RETENTION_DAYS.
`;
