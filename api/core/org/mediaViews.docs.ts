import { prose } from '../../http/docs';

export const assetViewUrlDoc = prose`
  Presigned GET of the bytes (images inline, files as attachments: HTML, SVG and other active content never inline),
  valid until urlExpiresAt
`;
