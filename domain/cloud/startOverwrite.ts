import { notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { liveFile } from './store/nodes';
import { startUpload, type StartedUpload } from './uploads';
import { refuseDavLocked } from './refuseDavLocked';

/**
 * Step 1 of an upload that replaces a file's content (the same three steps as a new file): reserves the new bytes
 * in the quota and answers the address. Its confirmation (completeUpload) keeps the current content as a version,
 * as a WebDAV PUT over the file does. 404 when the file is not a live file of the drive.
 */
export async function startOverwrite(
  ctx: TenantContext,
  fileId: string,
  props: { size: number; contentType: string },
): Promise<StartedUpload> {
  const file = await liveFile(ctx.em, fileId);
  if (!file) throw notFound('File');
  await refuseDavLocked(ctx, [{ nodeId: file.id }]);
  return startUpload(ctx, { ...props, name: file.name, folderId: file.parentId ?? null, replacesId: file.id });
}
