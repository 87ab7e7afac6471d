import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';
import { Customer } from './customer';
import {
  INVOICE_TEXT_LENGTHS,
  type BuyerOverrides,
  type InvoiceLine,
  type InvoiceParty,
  type VatBreakdown,
} from './invoice';

/**
 * draft: editable, no number. sent: numbered, mailed, frozen (the database refuses changes but the answer);
 * accepted / declined: answered once by the customer through the signed link (final). A sent quote past its
 * validity date is shown `expired` (computed: domain/core/invoices/quotes/quoteStatus.ts) and cannot be accepted.
 */
export const quoteStatuses = ['draft', 'sent', 'accepted', 'declined'] as const;
export type QuoteStatus = (typeof quoteStatuses)[number];
/** What a reader sees: the stored status, or expired for a sent quote past its validity date. */
export const quoteViewStatuses = ['draft', 'sent', 'accepted', 'declined', 'expired'] as const;
export type QuoteViewStatus = (typeof quoteViewStatuses)[number];

export const QUOTE_TEXT_LENGTHS = { responderName: 200, userAgent: 500, ip: 64, declineReason: 1000 } as const;

/** A quote (devis): lines and totals computed as an invoice's (amounts.ts), numbered from its own gapless sequence when sent. */
export const Quote = defineEntity({
  name: 'Quote',
  tableName: 'inv_quotes',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'status', 'id'] }, { properties: ['tenantId', 'customerId', 'sentAt', 'id'] }],
  uniques: [{ properties: ['tenantId', 'sequenceYear', 'sequenceNo'] }, { properties: ['tenantId', 'number'] }],
  checks: [
    {
      name: 'inv_quotes_sent_check',
      expression: `(status = 'draft') = (number is null) and (status = 'draft') = (sent_at is null) and (status = 'draft' or (issue_date is not null and sequence_no > 0 and seller is not null and buyer is not null))`,
    },
    {
      name: 'inv_quotes_response_check',
      expression: `(status <> 'draft' and status <> 'sent') = (responded_at is not null and responder_name is not null)`,
    },
  ],
  properties: {
    ...tenantColumns(),
    updatedAt: updatedAt(),
    status: p.enum([...quoteStatuses]).default('draft'),
    customerId: () => p.manyToOne(Customer).mapToPk().fieldName('customer_id').deleteRule('restrict'),
    /** The CRM deal it was made from (a won deal), if any. */
    dealId: p.uuid().nullable(),
    number: p.string().length(40).nullable(),
    sequenceYear: p.integer().nullable(),
    sequenceNo: p.integer().nullable(),
    issueDate: p.date().nullable(),
    sentAt: p.datetime().nullable(),
    /** Last day the customer may accept it (Europe/Paris). */
    validUntil: p.date(),
    paymentTerms: p.string().length(INVOICE_TEXT_LENGTHS.paymentTerms).nullable(),
    note: p.string().length(INVOICE_TEXT_LENGTHS.note).nullable(),
    currency: p.string().length(3).default('EUR'),
    lines: p.json<InvoiceLine[]>(),
    vatBreakdown: p.json<VatBreakdown[]>(),
    lineTotalCents: p.bigint('number'),
    taxExclusiveCents: p.bigint('number'),
    vatTotalCents: p.bigint('number'),
    grandTotalCents: p.bigint('number'),
    buyerOverrides: p.json<BuyerOverrides>(),
    seller: p.json<InvoiceParty>().nullable(),
    buyer: p.json<InvoiceParty>().nullable(),
    /** The customer's answer: when, the name typed, from where. */
    respondedAt: p.datetime().nullable(),
    responderName: p.string().length(QUOTE_TEXT_LENGTHS.responderName).nullable(),
    responderIp: p.string().length(QUOTE_TEXT_LENGTHS.ip).nullable(),
    responderUserAgent: p.string().length(QUOTE_TEXT_LENGTHS.userAgent).nullable(),
    declineReason: p.string().length(QUOTE_TEXT_LENGTHS.declineReason).nullable(),
    createdBy: p.uuid().nullable(),
  },
});
export type Quote = InferEntity<typeof Quote>;

/** The counter of an organisation's quote numbers per year (0 without yearly reset), taken under its row lock. */
export const QuoteSequence = defineEntity({
  name: 'QuoteSequence',
  tableName: 'inv_quote_sequences',
  filters: tenantFilter,
  properties: {
    tenantId: p.uuid().primary(),
    year: p.integer().primary(),
    lastNo: p.integer(),
  },
});
export type QuoteSequence = InferEntity<typeof QuoteSequence>;

export const quoteInvoiceKinds = ['full', 'deposit', 'balance'] as const;
export type QuoteInvoiceKind = (typeof quoteInvoiceKinds)[number];

/**
 * An invoice made from an accepted quote: the whole quote (full), a deposit for a percentage, or the balance
 * after the deposit. Unique per quote and kind, and one invoice per row: converting twice makes nothing twice.
 */
export const QuoteInvoice = defineEntity({
  name: 'QuoteInvoice',
  tableName: 'inv_quote_invoices',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'quoteId'] }],
  uniques: [{ properties: ['quoteId', 'kind'] }, { properties: ['invoiceId'] }],
  checks: [
    {
      name: 'inv_quote_invoices_deposit_check',
      expression: `(kind = 'deposit') = (deposit_percent_bp is not null) and (deposit_percent_bp is null or (deposit_percent_bp > 0 and deposit_percent_bp < 10000))`,
    },
  ],
  properties: {
    ...tenantColumns(),
    quoteId: () => p.manyToOne(Quote).mapToPk().fieldName('quote_id').deleteRule('restrict'),
    kind: p.enum([...quoteInvoiceKinds]),
    invoiceId: p.uuid(),
    depositPercentBp: p.integer().nullable(),
  },
});
export type QuoteInvoice = InferEntity<typeof QuoteInvoice>;
