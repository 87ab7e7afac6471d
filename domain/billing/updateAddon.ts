import type { Addon } from '../../entities/billing/addon';
import { audit } from '../platform/audit';
import type { TenantContext } from '../context';
import { findAddon, normalisedAddon, type AddonProps } from './catalogue';
import { ensurePriceUnused } from './payments';

/** Edits an add-on (fields left out are kept). What organisations hold does not change. */
export async function updateAddon(ctx: TenantContext, moduleKey: string, props: Partial<AddonProps>): Promise<Addon> {
  const addon = await findAddon(ctx.em, moduleKey);
  if (props.stripePriceId) await ensurePriceUnused(ctx.em, props.stripePriceId, { moduleKey });
  ctx.em.assign(addon, normalisedAddon(props), { ignoreUndefined: true });
  audit(ctx.em, {
    action: 'billing.addon_updated',
    actorId: ctx.userId,
    targetType: 'addon',
    targetId: moduleKey,
    data: { ...props },
  });
  await ctx.em.flush();
  return addon;
}
