import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { hrSettingsOf, type HrSettingsValues } from './settings';
import { upsertSettings, type StoredSettings } from './store/settings';

export type UpdateHrSettingsProps = Partial<StoredSettings>;

/**
 * Edits the organisation's HR settings: given fields replace the current values, absent ones are kept. Audited.
 * New overtime rates apply to weeks closed after the edit (a closed counter keeps what it was closed with).
 */
export async function updateHrSettings(ctx: TenantContext, props: UpdateHrSettingsProps): Promise<HrSettingsValues> {
  await ctx.em.transactional(async (em) => {
    const current = await hrSettingsOf({ em });
    const next: StoredSettings = {
      fractionnementWaivedByDefault: props.fractionnementWaivedByDefault ?? current.fractionnementWaivedByDefault,
      overtimeFirstTierMinutes: props.overtimeFirstTierMinutes ?? current.overtimeFirstTierMinutes,
      overtimeFirstRate: props.overtimeFirstRate ?? current.overtimeFirstRate,
      overtimeSecondRate: props.overtimeSecondRate ?? current.overtimeSecondRate,
      replacementRest: props.replacementRest ?? current.replacementRest,
      annualContingentMinutes: props.annualContingentMinutes ?? current.annualContingentMinutes,
      forfaitDays: props.forfaitDays ?? current.forfaitDays,
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
