import { prose } from '../http/docs';

/** Long OpenAPI descriptions of shares.ts, kept out of its table. */

export const postFilesIdShareDoc = prose`
  kind link: an address anyone holding it can open (POST /api/cloud/shared/{token}), optionally until expiresAt and
  behind a password; needs cloud.share as well. The url is in this answer only. kind members: members of the
  organisation (notified through the hub). Revoke with DELETE /api/cloud/files/{id}/shares/{shareId}.
`;

export const postSharedTokenDoc = prose`
  Anonymous: the token is the capability. Answers the file's name, size and type and a download address valid
  CLOUD_LINK_TTL_SECONDS (GET /api/cloud/shared/{token}/download, signed: it needs no password again). Unknown or
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
