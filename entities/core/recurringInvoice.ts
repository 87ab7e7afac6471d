import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';
import { Customer } from './customer';
import { INVOICE_TEXT_LENGTHS, type BuyerOverrides, type InvoiceLine, type VatBreakdown } from './invoice';

export const recurringIntervals = ['monthly', 'quarterly', 'yearly'] as const;
export type RecurringInterval = (typeof recurringIntervals)[number];

/** active: the clock issues its periods; paused: skipped (resuming starts at the next period to come); ended: past its end or count. */
export const recurringStatuses = ['active', 'paused', 'ended'] as const;
export type RecurringStatus = (typeof recurringStatuses)[number];

/**
 * A recurring invoice: a customer's template (lines and totals computed as an invoice's) invoiced once per period
 * by the clock (domain/core/invoices/recurring/). Period k runs on `dayOfPeriod` of the month `startOn`'s month +
 * k × the interval's months (the month's last day when shorter); `nextPeriod` is the next one to invoice and
 * `nextRunOn` its day (null once ended). A cadence changed later counts from `rulePeriod`, which runs in
 * `ruleStartOn`'s month: period k then runs in that month + (k − rulePeriod) × the interval's months.
 */
export const RecurringInvoice = defineEntity({
  name: 'RecurringInvoice',
  tableName: 'inv_recurring_invoices',
  filters: tenantFilter,
  indexes: [{ properties: ['status', 'nextRunOn', 'id'] }, { properties: ['tenantId', 'customerId', 'id'] }],
  checks: [
    {
      name: 'inv_recurring_invoices_rules_check',
      expression: `day_of_period >= 1 and day_of_period <= 31 and (max_count is null or max_count > 0) and (end_on is null or end_on >= start_on) and (auto_issue or not auto_send) and next_period >= 0 and (due_days is null or due_days >= 0 and due_days <= 365) and ((status = 'ended') = (next_run_on is null))`,
    },
  ],
  properties: {
    ...tenantColumns(),
    updatedAt: updatedAt(),
    customerId: () => p.manyToOne(Customer).mapToPk().fieldName('customer_id').deleteRule('restrict'),
    status: p.enum([...recurringStatuses]).default('active'),
    interval: p.enum([...recurringIntervals]),
    dayOfPeriod: p.integer(),
    startOn: p.date(),
    endOn: p.date().nullable(),
    /** At most this many invoices in all (periods from the first one on or after startOn). */
    maxCount: p.integer().nullable(),
    /** The first period (0, or 1 when period 0's day falls before startOn). */
    firstPeriod: p.integer(),
    nextPeriod: p.integer(),
    nextRunOn: p.date().nullable(),
    /** The month the current rule's period `rulePeriod` runs in, after a change of cadence; null: startOn's (rulePeriod 0). */
    ruleStartOn: p.date().nullable(),
    rulePeriod: p.integer().default(0),
    /** Issue each invoice (numbered, final) rather than leave a draft; autoSend mails the issued one. */
    autoIssue: p.boolean(),
    autoSend: p.boolean(),
    /** Days from issue to due date; the organisation's dueDays when null. */
    dueDays: p.integer().nullable(),
    paymentTerms: p.string().length(INVOICE_TEXT_LENGTHS.paymentTerms).nullable(),
    note: p.string().length(INVOICE_TEXT_LENGTHS.note).nullable(),
    /** ISO 4217: the currency of the template's amounts and of its invoices. */
    currency: p.string().length(3).default('EUR'),
    lines: p.json<InvoiceLine[]>(),
    vatBreakdown: p.json<VatBreakdown[]>(),
    lineTotalCents: p.bigint('number'),
    taxExclusiveCents: p.bigint('number'),
    vatTotalCents: p.bigint('number'),
    grandTotalCents: p.bigint('number'),
    buyerOverrides: p.json<BuyerOverrides>(),
    createdBy: p.uuid().nullable(),
  },
});
export type RecurringInvoice = InferEntity<typeof RecurringInvoice>;

/**
 * The invoice made for one period of a recurring invoice. Unique per (schedule, period) and written in the same
 * transaction as the invoice: a period is invoiced once however often, or however many at once, the job runs.
 */
export const RecurringInvoiceRun = defineEntity({
  name: 'RecurringInvoiceRun',
  tableName: 'inv_recurring_runs',
  filters: tenantFilter,
  uniques: [{ properties: ['scheduleId', 'periodIndex'] }, { properties: ['invoiceId'] }],
  properties: {
    ...tenantColumns(),
    scheduleId: () => p.manyToOne(RecurringInvoice).mapToPk().fieldName('schedule_id').deleteRule('cascade'),
    periodIndex: p.integer(),
    periodStart: p.date(),
    periodEnd: p.date(),
    /** The invoice made (no foreign key: a draft made may be deleted, the period stays invoiced). */
    invoiceId: p.uuid(),
  },
});
export type RecurringInvoiceRun = InferEntity<typeof RecurringInvoiceRun>;
