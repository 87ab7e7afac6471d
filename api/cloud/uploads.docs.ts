import { prose } from '../http/docs';

/** Long OpenAPI descriptions of uploads.ts (resumable uploads), kept out of its table. */

export const postUploadsDoc = prose`
  Starts a resumable upload of a drive file in parts (files beyond a single PUT's 5 GiB, flaky links). Checks the
  declared file (size at most CLOUD_MULTIPART_MAX_BYTES, 413 \`file_too_large\`), reserves its bytes in the
  organisation's quota like a single upload (409 \`quota_exceeded\`) and starts a multipart upload in the store. The
  answer gives the part size: parts 1 to partCount - 1 have exactly partSize bytes, the last what remains (at least
  CLOUD_MULTIPART_PART_SIZE_MIN, more for a file that would need over 10,000 parts). Then: POST .../part-urls, PUT
  the parts (any order, in parallel, again after a failure), POST .../complete before expiresAt
  (CLOUD_MULTIPART_TTL_SECONDS), or DELETE to abort. An upload neither completed nor aborted by then is aborted by the
  sweep (its parts deleted) and its reservation released.
`;

export const postUploadsIdPartUrlsDoc = prose`
  Presigned PUT addresses of the parts asked for, straight to the object store (S3: UploadPart with uploadId and
  partNumber; the local adapter: its own signed address), valid CLOUD_UPLOAD_TTL_SECONDS and never past the upload's
  expiry: ask again for the parts still to send when they expire. PUT each part's raw bytes (no Content-Type needed)
  and keep the ETag header of its answer for the completion. A part PUT again replaces the earlier one. 400
  \`part_number_invalid\` for a number outside 1 to partCount; 404 for an upload that is not pending (completed,
  aborted, or of another organisation); 410 \`upload_expired\`.
`;

export const getUploadsDoc = prose`
  The caller's own resumable uploads still pending (started, neither completed nor aborted, not expired), newest
  first, at most 100: what a sync client that lost its state after a crash, or the same member on another device,
  finds again before resuming one with GET .../{id} (the parts held) or aborting it. Single-PUT uploads are not
  listed (they cannot be resumed), nor other members' uploads (each resumes their own).
`;

export const getUploadsIdDoc = prose`
  What the store holds of a pending resumable upload: each uploaded part with its ETag and size, the numbers still
  missing and the bytes held, to resume after a disconnect (PUT the missing parts, or those of a wrong size, again).
  404 once completed (the file exists: POST .../complete answers it again) or aborted.
`;

export const postUploadsIdCompleteDoc = prose`
  Assembles the file from its parts in the store and records it like a confirmed upload (201 with the file; its id is
  the uploadId; a name taken in the folder becomes "name (2)", a folder trashed meanwhile puts it at the root), the
  quota's reservation becoming used bytes of its real size. Name the parts with the ETags their PUTs answered, or
  send no parts to take them as the store lists them. Every part 1 to partCount must be there (409 \`parts_missing\`,
  naming them), each of its exact size (409 \`part_size_mismatch\`), with the ETag given (409 \`part_mismatch\`: PUT again
  since); the upload stays pending after these, so PUT and complete again. A given list out of order is 400, a part
  number outside the upload 400 \`part_number_invalid\`. Completing again answers 200 with the file.
`;

export const deleteUploadsIdDoc = prose`
  Aborts a pending resumable upload: the store's multipart upload and its parts are deleted and the quota reservation
  released (204). 404 when it is not pending (completed: delete the file instead).
`;

export const completeConflictError = prose`
  \`parts_missing\`, \`part_size_mismatch\`, \`part_mismatch\`, \`upload_incomplete\`, or \`name_taken\` (concurrent
  uploads took every free name tried; complete again)
`;
