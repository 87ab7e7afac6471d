import { invalidField } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { startUpload, type StartedUpload } from '../../cloud/uploads';
import { IMAGE_TYPES, type AssetPurpose, type AssetUploadProps } from './assets';

/**
 * Step 1 of a media upload: the cloud module's own signed upload (quota reserved, server-chosen key), with
 * the purpose `image` (images only) or `asset` (any file). Confirm with confirmAsset.
 */
export async function startAssetUpload(
  ctx: TenantContext,
  props: AssetUploadProps,
  purpose: AssetPurpose,
): Promise<StartedUpload> {
  if (purpose === 'image' && !IMAGE_TYPES.includes(props.contentType.split(';')[0].trim().toLowerCase())) {
    throw invalidField('contentType', `must be one of ${IMAGE_TYPES.join(', ')}`);
  }
  return startUpload(ctx, { ...props, purpose });
}
