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
  Downloads the file (attachment), as long as the link and its file are live: GET /api/cloud/shared/{token}/download
`;

export const cloudQuotaViewOverQuotaDoc = prose`
  True when the quota is below what is stored (after a downgrade): uploads are refused, nothing is deleted
`;
