import type { TenantContext } from '../context';
import { refuseDavLocked, selectionTargets } from './refuseDavLocked';
import type { NodeSelection } from './selection';
import { trashNodes } from './trashNodes';

/** The API's trash: as trashNodes, refused with 423 `locked` where a WebDAV client holds a lock (refuseDavLocked). */
export async function trashItems(ctx: TenantContext, selection: NodeSelection): Promise<void> {
  await refuseDavLocked(ctx, selectionTargets(selection));
  await trashNodes(ctx, selection);
}
