import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';
import type { OperationCategory } from './invoice';

/**
 * The organisation's VAT regime, which sets its e-reporting periods (domain/core/invoices/ereporting/periods.ts):
 * real_monthly (réel normal, monthly returns: decades), real_quarterly (réel normal, quarterly returns: months),
 * simplified (régime simplifié, franchise: two months).
 */
export const vatRegimes = ['real_monthly', 'real_quarterly', 'simplified'] as const;
export type VatRegime = (typeof vatRegimes)[number];

/** What a report carries: transaction data (B2C and international sales) or payment data (services collected). */
export const ereportKinds = ['transactions', 'payments'] as const;
export type EReportKind = (typeof ereportKinds)[number];

/** Where a report is with the platform, as for lifecycle status messages. */
export const ereportStates = ['queued', 'sent', 'failed', 'not_sent'] as const;
export type EReportState = (typeof ereportStates)[number];

/** Transaction categories of the DGFiP e-reporting specification (TT-81). */
export const transactionCategoryCodes = ['TLB1', 'TPS1', 'TNT1'] as const;
export type TransactionCategoryCode = (typeof transactionCategoryCodes)[number];

/** Who the sale was to: a consumer (or any buyer without a SIREN) in France or abroad, or a business abroad. */
export type EReportScope = 'b2c' | 'international';

/** One aggregated line of transaction data: a day, a scope, a category and a VAT rate. Amounts in cents. */
export interface TransactionLine {
  date: string;
  scope: EReportScope;
  category: OperationCategory;
  categoryCode: TransactionCategoryCode;
  vatRateBp: number;
  taxableCents: number;
  vatCents: number;
  invoiceCount: number;
  creditNoteCount: number;
}

/** One aggregated line of payment data: a day and a VAT rate. Amounts in cents, `amountCents` VAT included. */
export interface PaymentLine {
  date: string;
  vatRateBp: number;
  amountCents: number;
  taxableCents: number;
  vatCents: number;
  paymentCount: number;
}

/** The organisation's e-reporting setting (the default regime until it saves one). */
export const EReportingSettings = defineEntity({
  name: 'EReportingSettings',
  tableName: 'inv_ereporting_settings',
  filters: tenantFilter,
  properties: {
    tenantId: p.uuid().primary(),
    vatRegime: p.enum([...vatRegimes]),
    updatedAt: updatedAt(),
  },
});
export type EReportingSettings = InferEntity<typeof EReportingSettings>;

/**
 * The e-report of one period and kind: sequence 0 is the period's report, built once when the period has closed
 * (unique (tenant, kind, period start, sequence)); a later sequence is a rectifying report of that period (what
 * was dated in it but issued or recorded after it was reported). Its content is immutable (trigger
 * inv_ereports_immutable: only the sending columns change, nothing is deleted); it is sent by a job staged with it.
 */
export const EReport = defineEntity({
  name: 'EReport',
  tableName: 'inv_ereports',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'periodStart', 'id'] }],
  uniques: [{ properties: ['tenantId', 'kind', 'periodStart', 'sequence'] }],
  checks: [
    {
      name: 'inv_ereports_period_check',
      expression: 'period_end >= period_start and sequence >= 0 and attempts >= 0 and round >= 0',
    },
  ],
  properties: {
    ...tenantColumns(),
    updatedAt: updatedAt(),
    kind: p.enum([...ereportKinds]),
    periodStart: p.date(),
    periodEnd: p.date(),
    /** The regime the period was cut by. */
    vatRegime: p.enum([...vatRegimes]),
    sequence: p.integer(),
    /** The seller as the report declares it. */
    sellerSiren: p.string().length(20).nullable(),
    sellerVatNumber: p.string().length(40).nullable(),
    sellerName: p.string().length(300),
    currency: p.string().length(3),
    lines: p.json<TransactionLine[] | PaymentLine[]>(),
    /** Documents (transactions) or payments (payments) the report covers. */
    itemCount: p.integer(),
    taxableCents: p.bigint('number'),
    vatCents: p.bigint('number'),
    state: p.enum([...ereportStates]).default('queued'),
    attempts: p.integer().default(0),
    /** Sendings asked for: 0 the first, +1 each re-send (each its own job, the same idempotency key). */
    round: p.integer().default(0),
    lastError: p.string().length(1000).nullable(),
    sentAt: p.datetime().nullable(),
    platformReportId: p.string().length(200).nullable(),
  },
});
export type EReport = InferEntity<typeof EReport>;

/**
 * What a report covered: an issued document (transactions) or a payment (payments), once: the primary key makes
 * a document or payment reported in one report of its kind only, so a rerun or a rectifying report never counts it twice.
 */
export const EReportItem = defineEntity({
  name: 'EReportItem',
  tableName: 'inv_ereport_items',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'reportId'] }],
  properties: {
    tenantId: p.uuid().primary(),
    kind: p.enum([...ereportKinds]).primary(),
    sourceId: p.uuid().primary(),
    reportId: p.uuid(),
  },
});
export type EReportItem = InferEntity<typeof EReportItem>;
