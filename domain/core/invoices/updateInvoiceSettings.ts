import { InvoiceSettings } from '../../../entities/core/invoiceNumbering';
import type { TenantContext } from '../../context';
import { checkInvoiceSettings, readInvoiceSettings, type InvoiceSettingsValues } from './settings';

/**
 * Saves the organisation's settings (the fields given; the others keep their value). Numbers already issued keep
 * theirs; the next issue uses the new prefix, and a counter continues where it was (switching yearly reset on or
 * off starts the counter of the other kind: per year, or one for all years).
 */
export async function updateInvoiceSettings(
  ctx: TenantContext,
  props: Partial<InvoiceSettingsValues>,
): Promise<InvoiceSettingsValues> {
  const given = Object.fromEntries(Object.entries(props).filter(([, value]) => value !== undefined));
  const next = { ...(await readInvoiceSettings(ctx.em, ctx.tenantId)), ...given };
  checkInvoiceSettings(next);
  await ctx.em.upsert(InvoiceSettings, { tenantId: ctx.tenantId, ...next, updatedAt: new Date() });
  return next;
}
