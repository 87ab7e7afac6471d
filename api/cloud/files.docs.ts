import { prose } from '../http/docs';

/** Long OpenAPI descriptions of files.ts, kept out of its table. */

export const postFilesUploadUrlDoc = prose`
  Checks the declared file (size at most CLOUD_MAX_UPLOAD_BYTES, 413 \`file_too_large\`), reserves its bytes in the
  organisation's quota (409 \`quota_exceeded\`: concurrent uploads can never pass the quota together) and answers a
  presigned PUT address for a key the server chooses under the organisation's prefix, valid CLOUD_UPLOAD_TTL_SECONDS.
  Step 2: PUT the bytes to \`url\` with \`headers\` (they go straight to the object store, not through this API). Step
  3: POST /api/cloud/files/upload-confirm. An upload not confirmed by \`confirmBy\` is released and its object deleted.
  The address takes one upload, only while it is pending, of at most \`size\` bytes. The local storage adapter enforces
  that on the PUT: after the confirmation, a refused confirmation or the expiry 409 \`upload_not_pending\`, a second PUT
  409 \`object_exists\`, a larger body 413. S3 takes the PUT itself and cannot be held to the size (a presigned PUT
  signs neither Content-Length nor Content-Type): the confirmation checks the object, then copies it, on condition of
  its ETag, to the file's own key, so a later PUT to the address changes neither the file nor the quota; until the
  address expires, such a PUT can still leave an object at the upload key that no file or quota counts.
`;

export const postFilesUploadConfirmDoc = prose`
  Stats the stored object and checks its size and Content-Type against the declaration, then records the file (id =
  uploadId) and turns the reservation into used bytes. A name taken in the folder becomes "name (2)"; a folder trashed
  meanwhile puts the file at the root. 409 \`upload_incomplete\`: nothing was PUT yet (PUT, then confirm again). 409
  \`upload_mismatch\`: the object differs from the declaration; it is deleted and the reservation released. 409
  \`upload_changed\` (S3): a new PUT replaced the object while it was being confirmed (confirm again). 410
  \`upload_expired\`. Confirming again answers 200 with the file. An upload replacing a file's content (POST
  /api/cloud/files/{id}/upload-url) answers 200 with that file, its previous content kept as a version (again while that version is kept); 404 when the
  file was trashed meanwhile (the upload discarded, its reservation released).
`;

export const getFilesIdDownloadUrlDoc = prose`
  An address valid CLOUD_LINK_TTL_SECONDS (GET /api/cloud/files/{id}/download, signed t parameter, no token needed)
  answering the bytes with \`Content-Disposition: attachment\` and the file's name (active content such as HTML or SVG
  as application/octet-stream where the store allows it); also an inline address (signed t parameter) for rendering in a
  page. Both check the file at every use: trashed, purged or of a suspended organisation, they answer 404 at once.
`;

export const getFilesIdTenantDownloadUrlDoc = prose`
  For the suite's own services (documents, slides, thumbnails) fetching a file of the caller's organisation server-side
  with the caller's token: the file's size and type and its inline address (follow its redirect), answering the bytes
  without Content-Disposition for the types a browser renders safely (images, video, audio, PDF, plain text); any other
  type (HTML, SVG ...) is an attachment, answered as application/octet-stream where the store allows it (S3). The
  address checks the file at every use (404 once it is trashed or purged, or its organisation suspended).
`;

export const getFilesIdDownloadDoc = prose`
  Anonymous, authorised by the query parameter t of the download-url answer's url: \`<expiry>.<HMAC-SHA256>\` over the
  file id, the purpose and expiry, with a key used for nothing else. A tampered, missing or foreign token (an inline one
  included) is 403 \`download_token_invalid\`, an expired one 403 \`download_token_expired\`. Redirects (302) to a
  storage address valid 60 s answering the bytes as an attachment named like the file. A file trashed or deleted, or of
  an organisation that is suspended or not entitled to cloud, is 404 at once.
`;

export const getFilesIdInlineDoc = prose`
  Anonymous, authorised by the query parameter t of the download-url answer's inlineUrl (or tenant-download-url's url):
  \`<expiry>.<HMAC-SHA256>\` over the file id, the purpose and expiry, with a key used for nothing else. A tampered,
  missing or foreign token is 403 \`inline_token_invalid\`, an expired one 403 \`inline_token_expired\`. Redirects (302)
  to a storage address valid 60 s; images, video, audio, PDF and plain text render inline, other types download. A file
  of an organisation that is suspended or not entitled to cloud is 404, like one trashed or deleted.
`;

export const patchFilesIdDoc = prose`
  A name taken in its folder is 409 \`name_taken\` (renames never rename silently). Names are sanitised like uploads.
`;

export const deleteFilesIdDoc = prose`
  It stays in the trash (and in the quota) CLOUD_TRASH_RETENTION_DAYS, then the purge deletes it and its object. POST
  /restore brings it back.
`;

export const postFilesIdRestoreDoc = prose`
  Back into its folder, or to the root when that folder is gone or trashed; a name taken since becomes "name (2)". 409
  \`trashed_with_folder\` for a file trashed with its folder: restore the folder.
`;

export const postFilesBulkDeleteDoc = prose`
  All or nothing: when one id is unknown (or already trashed) the answer is 404 naming it and nothing is trashed.
  Folders go with their subtrees.
`;

export const postFilesBulkMoveDoc = prose`
  Into folderId (null or absent: the root). All or nothing: an unknown id (404), a name taken in the target or shared by
  two moved items (409 \`name_taken\`) or a folder moved into itself or its subtree (409 \`folder_cycle\`) moves
  nothing.
`;

/** 423 of every change a WebDAV lock covers (domain/cloud/refuseDavLocked.ts). */
export const davLockedError =
  '`locked`: a WebDAV client holds a lock on the item (or on a folder above it, or for a folder on an item inside); unlock it or wait for the lock to expire';

/** 404 of the anonymous addresses of a file. */
export const fileGoneError =
  'File not found (trashed or deleted, or its organisation suspended or not entitled to cloud)';

export const uploadConfirmConflictError = prose`
  \`upload_incomplete\`, \`upload_mismatch\`, \`upload_changed\`, \`upload_resumable\` (a resumable upload: POST
  /api/cloud/uploads/{id}/complete), or \`name_taken\` (concurrent uploads took every free name tried; the upload stays
  pending: confirm again)
`;

export const restoreConflictError =
  '`trashed_with_folder`, or `name_taken` (concurrent creations took every free name tried; try again)';
