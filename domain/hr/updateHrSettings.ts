import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { hrSettingsOf, type HrSettingsValues } from './settings';
import { upsertSettings } from './store/settings';

export interface UpdateHrSettingsProps {
  fractionnementWaivedByDefault?: boolean;
}

/** Edits the organisation's HR settings: given fields replace the current values, absent ones are kept. Audited. */
export async function updateHrSettings(ctx: TenantContext, props: UpdateHrSettingsProps): Promise<HrSettingsValues> {
  await ctx.em.transactional(async (em) => {
    const current = await hrSettingsOf({ ...ctx, em });
    const next = {
      fractionnementWaivedByDefault: props.fractionnementWaivedByDefault ?? current.fractionnementWaivedByDefault,
    };
    await upsertSettings(em, ctx.tenantId, next, ctx.userId);
    audit(em, {
      action: 'hr.settings.updated',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'hr_settings',
      targetId: ctx.tenantId,
      data: { fields: Object.keys(props), ...next },
    });
  });
  ctx.em.clear();
  return hrSettingsOf(ctx);
}
