import { InvoiceAccountingSettings, type VatAccounts } from '../../../../entities/core/receivables';
import type { Em } from '../../../../lib/db';
import { badRequest, type FieldError } from '../../../../lib/errors';

/**
 * French defaults (Plan comptable général): sales journal VE, bank journal BQ, customers 411000 (one auxiliary
 * account per customer), services rendered 706000, bank 512000, VAT collected 44571 split per rate. The
 * reminder plan: 3 days before the due date, on it, 7 and 15 days after. Online payment (payment links) off.
 */
export const defaultAccountingSettings = {
  salesJournalCode: 'VE',
  bankJournalCode: 'BQ',
  customersAccount: '411000',
  revenueAccount: '706000',
  bankAccount: '512000',
  vatAccounts: { '2000': '44571200', '1000': '44571100', '550': '44571055', '210': '44571021' } as VatAccounts,
  defaultVatAccount: '44571000',
  fiscalYearStartMonth: 1,
  remindersEnabled: true,
  reminderOffsets: [-3, 0, 7, 15],
  onlinePaymentEnabled: false,
};

export type AccountingSettingsValues = typeof defaultAccountingSettings;

/** The organisation's accounting settings, or the defaults. */
export async function readAccountingSettings(em: Em, tenantId: string): Promise<AccountingSettingsValues> {
  const row = await em.findOne(InvoiceAccountingSettings, { tenantId });
  if (!row) return { ...defaultAccountingSettings };
  const { tenantId: _t, updatedAt: _u, ...values } = row;
  return values;
}

const ACCOUNT = /^[0-9A-Z]{3,20}$/;
const JOURNAL = /^[0-9A-Z]{1,10}$/;

/** 400 unless the settings hold together: account numbers and journal codes alphanumeric, journals distinct. */
export function checkAccountingSettings(s: AccountingSettingsValues): void {
  const errors: FieldError[] = [];
  for (const field of ['customersAccount', 'revenueAccount', 'bankAccount', 'defaultVatAccount'] as const)
    if (!ACCOUNT.test(s[field])) errors.push({ field, message: 'must be 3 to 20 digits or capital letters' });
  for (const [rate, account] of Object.entries(s.vatAccounts)) {
    if (!/^[0-9]{1,4}$/.test(rate) || Number(rate) > 10_000)
      errors.push({ field: `vatAccounts.${rate}`, message: 'keys are VAT rates in basis points (2000 = 20 %)' });
    if (typeof account !== 'string' || !ACCOUNT.test(account))
      errors.push({ field: `vatAccounts.${rate}`, message: 'must be 3 to 20 digits or capital letters' });
  }
  for (const field of ['salesJournalCode', 'bankJournalCode'] as const)
    if (!JOURNAL.test(s[field])) errors.push({ field, message: 'must be 1 to 10 digits or capital letters' });
  if (s.salesJournalCode === s.bankJournalCode)
    errors.push({ field: 'bankJournalCode', message: 'must differ from salesJournalCode' });
  const offsets = s.reminderOffsets;
  if (offsets.some((o, i) => i > 0 && o <= offsets[i - 1]))
    errors.push({ field: 'reminderOffsets', message: 'must be distinct and ascending' });
  if (errors.length) throw badRequest('validation_failed', 'The accounting settings are inconsistent', errors);
}
