import { InvoiceSettings } from '../../../entities/core/invoiceNumbering';
import type { Em } from '../../../lib/db';
import { badRequest, type FieldError } from '../../../lib/errors';
import type { TenantContext } from '../../context';

/** Numbering and terms an organisation gets until it saves its own. */
export const defaultInvoiceSettings = {
  invoicePrefix: 'F-{YYYY}-',
  creditNotePrefix: 'AV-{YYYY}-',
  yearlyReset: true,
  digits: 5,
  dueDays: 30,
  paymentTerms:
    "Paiement à 30 jours par virement. En cas de retard : pénalités au taux d'intérêt de la BCE majoré de 10 points, et indemnité forfaitaire pour frais de recouvrement de 40 € (art. L441-10 du Code de commerce). Pas d'escompte pour paiement anticipé.",
};

export type InvoiceSettingsValues = typeof defaultInvoiceSettings;

/** The organisation's settings, or the defaults. */
export async function readInvoiceSettings(em: Em, tenantId: string): Promise<InvoiceSettingsValues> {
  const row = await em.findOne(InvoiceSettings, { tenantId });
  if (!row) return { ...defaultInvoiceSettings };
  const { invoicePrefix, creditNotePrefix, yearlyReset, digits, dueDays, paymentTerms } = row;
  return { invoicePrefix, creditNotePrefix, yearlyReset, digits, dueDays, paymentTerms };
}

export const getInvoiceSettings = (ctx: TenantContext) => readInvoiceSettings(ctx.em, ctx.tenantId);

/**
 * Saves the organisation's settings (the fields given; the others keep their value). Numbers already issued keep
 * theirs; the next issue uses the new prefix, and a counter continues where it was (switching yearly reset on or
 * off starts the counter of the other kind: per year, or one for all years).
 */
export async function updateInvoiceSettings(ctx: TenantContext, props: Partial<InvoiceSettingsValues>): Promise<InvoiceSettingsValues> {
  const given = Object.fromEntries(Object.entries(props).filter(([, value]) => value !== undefined));
  const next = { ...(await readInvoiceSettings(ctx.em, ctx.tenantId)), ...given };
  const errors: FieldError[] = [];
  if (next.invoicePrefix === next.creditNotePrefix) errors.push({ field: 'creditNotePrefix', message: 'must differ from invoicePrefix' });
  for (const field of ['invoicePrefix', 'creditNotePrefix'] as const) {
    if (next.yearlyReset && !next[field].includes('{YYYY}')) errors.push({ field, message: 'must contain {YYYY} while yearlyReset is on (numbers of different years would collide)' });
  }
  if (errors.length) throw badRequest('validation_failed', 'The invoice settings are inconsistent', errors);
  await ctx.em.upsert(InvoiceSettings, { tenantId: ctx.tenantId, ...next, updatedAt: new Date() });
  return next;
}
