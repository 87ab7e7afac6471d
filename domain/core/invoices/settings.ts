import { InvoiceSettings } from '../../../entities/core/invoiceNumbering';
import type { Em } from '../../../lib/db';
import { badRequest, type FieldError } from '../../../lib/errors';
import { checkDocumentCurrency } from './currencies';

/** Numbering and terms an organisation gets until it saves its own. */
export const defaultInvoiceSettings = {
  invoicePrefix: 'F-{YYYY}-',
  creditNotePrefix: 'AV-{YYYY}-',
  yearlyReset: true,
  digits: 5,
  dueDays: 30,
  /** The books' currency (FEC) and the default currency of documents (ISO 4217). */
  accountingCurrency: 'EUR',
  paymentTerms:
    "Paiement à 30 jours par virement. En cas de retard : pénalités au taux d'intérêt de la BCE majoré de 10 points, et indemnité forfaitaire pour frais de recouvrement de 40 € (art. L441-10 du Code de commerce). Pas d'escompte pour paiement anticipé.",
};

export type InvoiceSettingsValues = typeof defaultInvoiceSettings;

/** The organisation's settings, or the defaults. */
export async function readInvoiceSettings(em: Em, tenantId: string): Promise<InvoiceSettingsValues> {
  const row = await em.findOne(InvoiceSettings, { tenantId });
  if (!row) return { ...defaultInvoiceSettings };
  const { invoicePrefix, creditNotePrefix, yearlyReset, digits, dueDays, paymentTerms, accountingCurrency } = row;
  return { invoicePrefix, creditNotePrefix, yearlyReset, digits, dueDays, paymentTerms, accountingCurrency };
}

/**
 * 400 unless settings hold together: the two prefixes differ, and with yearly reset each contains {YYYY} (numbers
 * of different years would collide otherwise).
 */
export function checkInvoiceSettings(settings: InvoiceSettingsValues): void {
  checkDocumentCurrency(settings.accountingCurrency, 'accountingCurrency');
  const errors: FieldError[] = [];
  if (settings.invoicePrefix === settings.creditNotePrefix)
    errors.push({ field: 'creditNotePrefix', message: 'must differ from invoicePrefix' });
  for (const field of ['invoicePrefix', 'creditNotePrefix'] as const) {
    if (settings.yearlyReset && !settings[field].includes('{YYYY}'))
      errors.push({
        field,
        message: 'must contain {YYYY} while yearlyReset is on (numbers of different years would collide)',
      });
  }
  if (errors.length) throw badRequest('validation_failed', 'The invoice settings are inconsistent', errors);
}
