import { conflict } from '../../lib/errors';
import { Addon } from '../../entities/billing/addon';
import { audit } from '../platform/audit';
import type { TenantContext } from '../context';
import { normalisedAddon, type AddonProps } from './catalogue';
import { ensurePriceUnused } from './payments';
import { addonOfModule } from './store';

/** Puts a module on sale as an add-on (409 `addon_exists` when the module already is one). */
export async function createAddon(ctx: TenantContext, props: AddonProps & { moduleKey: string }): Promise<Addon> {
  if (await addonOfModule(ctx.em, props.moduleKey))
    throw conflict('addon_exists', `The ${props.moduleKey} add-on already exists`);
  if (props.stripePriceId) await ensurePriceUnused(ctx.em, props.stripePriceId, { moduleKey: props.moduleKey });
  const addon = ctx.em.create(Addon, normalisedAddon(props));
  audit(ctx.em, {
    action: 'billing.addon_created',
    actorId: ctx.userId,
    targetType: 'addon',
    targetId: props.moduleKey,
    data: { ...props },
  });
  await ctx.em.flush();
  return addon;
}
