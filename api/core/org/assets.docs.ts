import { prose } from '../../http/docs';
import { IMAGE_TYPES } from '../../../domain/core/org/assets';

const imageTypes = IMAGE_TYPES.join(', ');

const uploadDoc = prose`
  The cloud module's own three-step upload: the bytes are reserved in the organisation's storage quota now (409
  \`quota_exceeded\`; 413 \`file_too_large\` past CLOUD_MAX_UPLOAD_BYTES), PUT straight to the object store at \`url\`
  with \`headers\`, then confirmed with POST /api/assets. Media files are cloud files hidden from the drive and counted
  in the quota like any other.
`;

export const imageUploadDoc = prose`
  Images only (${imageTypes}; no SVG). ${uploadDoc}
`;

export const assetUploadDoc = prose`
  Any file. Only ${imageTypes} become images; any other type (SVG and HTML included: they can carry scripts) is a file,
  whose url always downloads as an attachment. ${uploadDoc}
`;
