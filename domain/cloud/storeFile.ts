import type { CloudNode } from '../../entities/cloud/node';
import type { TenantContext } from '../context';
import { discardUpload } from './discardUpload';
import { reserveUpload, type StartUploadProps } from './reserveUpload';
import { completeUpload } from './uploads';

export interface StoreFileProps extends Omit<StartUploadProps, 'size'> {
  body: Buffer;
}

/**
 * A file the server itself writes (new documents; other modules' generated files): the same reservation,
 * the bytes put by the server, then the same confirmation. Exported for other modules.
 */
export async function storeFile(ctx: TenantContext, props: StoreFileProps): Promise<CloudNode> {
  const upload = await reserveUpload(ctx, { ...props, size: props.body.length });
  try {
    await ctx.services.storage.put(upload.objectKey, props.body, upload.contentType);
  } catch (err) {
    await discardUpload(ctx, upload).catch(() => undefined);
    throw err;
  }
  try {
    return (await completeUpload(ctx, upload.id)).node;
  } catch (err) {
    // Nobody confirms a server-written file again: give its reservation back now (a no-op once it was recorded).
    await discardUpload(ctx, upload).catch(() => undefined);
    throw err;
  }
}
