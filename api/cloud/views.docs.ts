import { prose } from '../http/docs';

/** Long OpenAPI descriptions of views.ts, kept out of its table. */

export const cloudDownloadUrlViewUrlDoc = prose`
  Downloads the bytes as an attachment named like the file: authorised by its signed, expiring t parameter, no token;
  404 once the file is trashed
`;

export const cloudDownloadUrlViewInlineUrlDoc = prose`
  Renders the file in a browser (img src, embeds): authorised by its signed, expiring t parameter, no token; 404 once
  the file is trashed
`;

export const cloudTenantDownloadUrlViewUrlDoc = prose`
  The inline address (redirects to the bytes, without Content-Disposition for the types a browser renders safely), for
  services of the suite fetching them
`;

export const cloudSharedFileViewUrlDoc = prose`
  Downloads the file (attachment), as long as the link and its file are live: GET /api/cloud/shared/{token}/download.
  Null for a drop folder: it shows nothing of what it holds
`;

export const cloudSharedFileViewUploadUrlDoc = prose`
  Where the link's PUTs go, valid as long as url: an edit link's PUT .../content replaces the file's content; a drop
  folder's PUT .../files takes each new file with \`&name=<file name>\` appended. Null for a view link
`;

export const cloudShareViewPermissionDoc = prose`
  view: the link downloads the file (member shares are always view); edit: it also replaces the content; upload: a
  drop folder, the link only puts new files into the folder
`;

export const cloudQuotaViewOverQuotaDoc = prose`
  True when the quota is below what is stored (after a downgrade): uploads are refused, nothing is deleted
`;
