import { InvoiceSettings } from '../../../entities/core/invoiceNumbering';
import { conflict } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { checkInvoiceSettings, readInvoiceSettings, type InvoiceSettingsValues } from './settings';
import { anyIssuedDocument } from './store';

/**
 * Saves the organisation's settings (the fields given; the others keep their value). Numbers already issued keep
 * theirs; the next issue uses the new prefix, and a counter continues where it was (switching yearly reset on or
 * off starts the counter of the other kind: per year, or one for all years). The accounting currency is fixed once
 * a document is issued (409 `accounting_currency_in_use`): the FEC and the recorded rates are in it.
 */
export async function updateInvoiceSettings(
  ctx: TenantContext,
  props: Partial<InvoiceSettingsValues>,
): Promise<InvoiceSettingsValues> {
  const given = Object.fromEntries(Object.entries(props).filter(([, value]) => value !== undefined));
  const current = await readInvoiceSettings(ctx.em, ctx.tenantId);
  const next = { ...current, ...given };
  checkInvoiceSettings(next);
  if (next.accountingCurrency !== current.accountingCurrency && (await anyIssuedDocument(ctx.em)))
    throw conflict(
      'accounting_currency_in_use',
      `Documents are issued in ${current.accountingCurrency}: the accounting currency stays ${current.accountingCurrency}`,
    );
  await ctx.em.upsert(InvoiceSettings, { tenantId: ctx.tenantId, ...next, updatedAt: new Date() });
  return next;
}
