import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';

/** VAT collected accounts keyed by the VAT rate in basis points ("2000" for 20 %). */
export type VatAccounts = Record<string, string>;

/**
 * The accountant's side of an organisation's invoicing: the accounts and journals of its FEC (defaults apply until
 * it saves its own, domain/core/invoices/accounting/accountingSettings.ts) and its payment reminder plan.
 */
export const InvoiceAccountingSettings = defineEntity({
  name: 'InvoiceAccountingSettings',
  tableName: 'inv_accounting_settings',
  filters: tenantFilter,
  checks: [
    {
      name: 'inv_accounting_settings_month_check',
      expression: 'fiscal_year_start_month >= 1 and fiscal_year_start_month <= 12',
    },
  ],
  properties: {
    tenantId: p.uuid().primary(),
    salesJournalCode: p.string().length(10),
    bankJournalCode: p.string().length(10),
    customersAccount: p.string().length(20),
    revenueAccount: p.string().length(20),
    bankAccount: p.string().length(20),
    vatAccounts: p.json<VatAccounts>(),
    defaultVatAccount: p.string().length(20),
    /** 1 to 12: the month the fiscal year starts (its year is the one it ends in). */
    fiscalYearStartMonth: p.integer(),
    remindersEnabled: p.boolean(),
    /** Days relative to the due date (negative: before), ascending, distinct. */
    reminderOffsets: p.json<number[]>(),
    /** Issued invoices can be paid online (a Stripe Checkout payment link; default false). */
    onlinePaymentEnabled: p.boolean().default(false),
    updatedAt: updatedAt(),
  },
});
export type InvoiceAccountingSettings = InferEntity<typeof InvoiceAccountingSettings>;

/**
 * A payment reminder mailed for one step of the plan (offsetDays relative to the due date) of one invoice. The
 * unique key (tenant, invoice, offset) makes each step go out once, whatever reruns of the job.
 */
export const InvoiceReminder = defineEntity({
  name: 'InvoiceReminder',
  tableName: 'inv_reminders',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'customerId', 'createdAt', 'id'] }],
  uniques: [{ properties: ['tenantId', 'invoiceId', 'offsetDays'] }],
  properties: {
    ...tenantColumns(),
    invoiceId: p.uuid(),
    customerId: p.uuid(),
    offsetDays: p.integer(),
    dueDate: p.date(),
    outstandingCents: p.bigint('number'),
    mailTo: p.string().length(320),
    mailId: p.uuid().nullable(),
  },
});
export type InvoiceReminder = InferEntity<typeof InvoiceReminder>;

/**
 * A hosted payment page (Stripe Checkout Session, mode payment) opened for an invoice, for the amount outstanding
 * then. Kept so that the customer link and staff reuse the session still open instead of creating one per click;
 * the unique session id makes two concurrent openings (same idempotency key, same session) store it once.
 */
export const InvoicePaymentLink = defineEntity({
  name: 'InvoicePaymentLink',
  tableName: 'inv_payment_links',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'invoiceId', 'createdAt'] }],
  uniques: [{ properties: ['tenantId', 'sessionId'] }],
  properties: {
    ...tenantColumns(),
    invoiceId: p.uuid(),
    /** The Checkout Session (cs_...). */
    sessionId: p.string().length(255),
    url: p.text(),
    amountCents: p.bigint('number'),
    currency: p.string().length(3),
    expiresAt: p.datetime(),
  },
});
export type InvoicePaymentLink = InferEntity<typeof InvoicePaymentLink>;
