import { InvoiceAccountingSettings } from '../../../../entities/core/receivables';
import type { TenantContext } from '../../../context';
import { checkAccountingSettings, readAccountingSettings, type AccountingSettingsValues } from './accountingSettings';

/**
 * Saves the organisation's accounting settings (the fields given; the others keep their value). Exports written
 * afterwards use them; reminders already sent stay sent (each step goes out once per invoice).
 */
export async function updateAccountingSettings(
  ctx: TenantContext,
  props: Partial<AccountingSettingsValues>,
): Promise<AccountingSettingsValues> {
  const given = Object.fromEntries(Object.entries(props).filter(([, value]) => value !== undefined));
  const next = { ...(await readAccountingSettings(ctx.em, ctx.tenantId)), ...given };
  checkAccountingSettings(next);
  await ctx.em.upsert(InvoiceAccountingSettings, { tenantId: ctx.tenantId, ...next, updatedAt: new Date() });
  return next;
}
