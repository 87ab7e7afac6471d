import { conflict } from '../../lib/errors';
import { audit } from '../platform/audit';
import type { TenantContext } from '../context';
import { findAddon } from './catalogue';
import { countAddonHolders } from './store';

/**
 * Deletes an add-on nobody holds. While an organisation holds it: 409 `addon_in_use` (set `active: false`
 * to stop selling it instead: holders keep it).
 */
export async function deleteAddon(ctx: TenantContext, moduleKey: string): Promise<void> {
  const addon = await findAddon(ctx.em, moduleKey);
  const holders = await countAddonHolders(ctx.em, moduleKey);
  if (holders)
    throw conflict('addon_in_use', `${holders} organisation(s) hold the ${moduleKey} add-on; deactivate it instead`);
  audit(ctx.em, { action: 'billing.addon_deleted', actorId: ctx.userId, targetType: 'addon', targetId: moduleKey });
  ctx.em.remove(addon);
  await ctx.em.flush();
}
