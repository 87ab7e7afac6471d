import { prose } from '../http/docs';

/** Long OpenAPI descriptions of shares.ts, kept out of its table. */

export const getSharedTokenItemsDoc = prose`
  The listUrl of an opened folder view link (POST /api/cloud/shared/{token}): a page of the shared folder, or with
  folderId of any live folder inside it, folders first then files, sorted like the drive's own listing (sort, order,
  limit, cursor). Each file has its downloadUrl, valid as long as t. Every use checks the link (revoked, expired,
  password changed, the organisation suspended) and that the folder is still inside the shared one: an item moved out
  or trashed is out of reach at once. Nothing of the organisation or its members is shown.
`;

export const patchSharesDoc = prose`
  Changes a share in place; the link keeps its address. Links: expiresAt (null: no expiry; a new one is mailed about
  again), password (null removes it; addresses opened with the former password stop working at once) and, for links
  to files, permission view or edit (drop folder links stay upload); needs cloud.share, as creating a link does.
  Member shares: memberIds, the members it is shared with from now on (those added are notified; those removed lose it
  at once). What changed holds from the next use of the link on. A revoked share is 409 \`share_revoked\` (share
  again). Audited \`cloud.share_updated\`, as creations and revocations are (\`cloud.share_created\`,
  \`cloud.share_revoked\`), in the organisation's audit log.
`;

export const postFilesIdShareDoc = prose`
  kind link: an address anyone holding it can open (POST /api/cloud/shared/{token}), optionally until expiresAt and
  behind a password; needs cloud.share as well. The url is in this answer only. kind members: members of the
  organisation (notified through the hub). permission (links only): view (default) lets the link download the file;
  edit also lets it replace the content (PUT /api/cloud/shared/{token}/content, the previous content kept as a
  version, like Nextcloud's and Dropbox's edit links); upload is for folders (400 here). Revoke with DELETE
  /api/cloud/files/{id}/shares/{shareId}. The creator is mailed CLOUD_SHARE_EXPIRY_NOTICE_HOURS before a link expires.
`;

export const postFoldersIdShareDoc = prose`
  A link to a live folder, optionally until expiresAt and behind a password; needs cloud.share. permission view: the
  link lists the folder and everything below it and downloads its files (the opened link's listUrl, GET
  /api/cloud/shared/{token}/items). permission upload (the default): a drop folder (Nextcloud's "file drop",
  Dropbox's file requests), an upload-only link. Whoever holds it opens it (POST /api/cloud/shared/{token}:
  the folder's name and an uploadUrl) and puts files into the folder (PUT /api/cloud/shared/{token}/files), never
  seeing, downloading or replacing what the folder holds. The files count in the organisation's quota, have no member
  as author (createdBy null) and are announced to the hub (file.uploaded). The url is in this answer only; list with
  GET .../shares, revoke with DELETE .../shares/{shareId}.
`;

export const putSharedTokenContentDoc = prose`
  Through an edit link (its uploadUrl, authorised by t like the download): replaces the file's content with the
  body, streamed to object storage after its declared size (Content-Length, 411 \`length_required\` without) was
  reserved in the organisation's quota (409 \`quota_exceeded\`); the previous content becomes a version, as every
  overwrite. A view or upload link is 403 \`share_permission_denied\`. The link is checked as at its opening (404,
  410). A body shorter or longer than declared is refused and nothing changes.
`;

export const putSharedTokenFilesDoc = prose`
  Through a drop folder's link (its uploadUrl with \`&name=\`): a new file of that name in the folder, or "name (2)"
  when the name is taken (a drop never replaces nor reveals a file). Streamed like any PUT of the drive (Content-Length
  required, 411; reserved in the quota first, 409 \`quota_exceeded\`; CLOUD_MAX_UPLOAD_BYTES at most, 413). Answers
  201 without a body: nothing of the folder is shown. Rate limited per address and per link.
`;

export const postSharedTokenDoc = prose`
  Anonymous: the token is the capability. Answers the file's name, size and type and a download address valid
  CLOUD_LINK_TTL_SECONDS (GET /api/cloud/shared/{token}/download, signed: it needs no password again), and for an
  edit link an uploadUrl replacing the content; a drop folder answers its name and uploadUrl only (kind folder,
  permission upload, url null). Unknown or
  revoked, its file no longer live, or its organisation suspended or not entitled to cloud: 404; expired: 410
  \`share_expired\`; a protected link without its password: 401 \`share_password_required\`, with a wrong one 403
  \`share_password_invalid\` (wrong passwords are rate-limited per address).
`;

export const getSharedTokenDownloadDoc = prose`
  The download address of an opened link (the url of POST /api/cloud/shared/{token}), authorised by its t:
  \`<expiry>.<HMAC-SHA256>\` over the share, with a key used for nothing else (403 \`download_token_invalid\` when
  missing or altered, \`download_token_expired\` after CLOUD_LINK_TTL_SECONDS: open the link again). The link is checked
  at every use like its opening: revoked, its file trashed or deleted, its organisation suspended or not entitled to
  cloud, 404; expired, 410 \`share_expired\`. Answers the bytes themselves as an attachment named like the file
  (application/octet-stream for types a browser should not render), streamed by the service: nothing in the answer names
  the organisation.
`;

export const getSharedWithMeDoc = prose`
  Live files other members of the organisation shared with the caller (member shares naming them, neither revoked
  nor expired), each once with who shared it last and when, the most recently shared first; keyset-paginated
  (\`cursor\` from \`nextCursor\`). Link shares are addresses, not listed here. The caller's own shares are not
  listed. GET /api/cloud/folders/shared-with-me answers the same files without the share details.
`;
