import { prose } from '../http/docs';

/** Long OpenAPI descriptions of versions.ts, kept out of its table. */

export const postFilesIdUploadUrlDoc = prose`
  Step 1 of an upload that replaces the file's content: the same three steps as a new file (PUT the bytes to \`url\`,
  then POST /api/cloud/files/upload-confirm with the uploadId), the same checks (413 \`file_too_large\`, 409
  \`quota_exceeded\`: the new bytes are reserved while the current ones stay counted). The confirmation keeps the
  current content as a version (GET /api/cloud/files/{id}/versions), as a WebDAV PUT over the file does, and answers
  the file (200). The file keeps its id, name, folder, shares and stars. A file trashed before the confirmation
  answers 404 there, the upload discarded and its reservation released.
`;

export const getFilesIdVersionsDoc = prose`
  The previous contents of the file, kept when it was overwritten (upload, WebDAV PUT, restore), the most recently
  replaced first: each one's size (counted in the organisation's quota), type, author, when it was written and when
  it was replaced, and its SHA-256 where known. The retention thins them hourly: every version of the last hour, then
  one per hour up to a day, one per day up to 30 days, one per week after, at most CLOUD_VERSIONS_MAX_PER_FILE.
`;

export const getFilesIdVersionsVersionIdContentDoc = prose`
  The version's bytes, streamed, as an attachment named like the file (active types such as HTML or SVG as
  application/octet-stream). One byte range (\`Range: bytes=a-b\`, \`a-\`, \`-n\`) answers 206 with Content-Range; an
  unsatisfiable one 416 \`range_not_satisfiable\`; several ranges the whole content.
`;

export const postFilesIdVersionsVersionIdRestoreDoc = prose`
  Makes the version the file's content again, in one transaction: the current content becomes a version (first in
  the list), the chosen one current (its row leaves the list). Nothing is copied, so the quota does not change and a
  restore works even over quota. Answers the file.
`;

export const deleteFilesIdVersionsVersionIdDoc = prose`
  Deletes the version and its object for good, freeing its bytes in the quota at once.
`;
