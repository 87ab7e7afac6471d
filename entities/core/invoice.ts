import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';
import { Customer } from './customer';

/** EN 16931 VAT category codes (UNTDID 5305) a French business uses. */
export const vatCategories = ['S', 'Z', 'E', 'AE', 'K', 'O'] as const;
export type VatCategory = (typeof vatCategories)[number];

/** A computed line as stored on the invoice. */
export interface InvoiceLine {
  position: number;
  description: string;
  quantityMilli: number;
  unitCode: string;
  unitPriceCents: number;
  vatCategory: VatCategory;
  vatRateBp: number;
  exemptionReason: string | null;
  exemptionReasonCode: string | null;
  /** Discount percentage in basis points when it was given as one. */
  discountPercentBp: number | null;
  discountCents: number;
  grossCents: number;
  netCents: number;
}

/** One VAT breakdown (BG-23). */
export interface VatBreakdown {
  category: VatCategory;
  rateBp: number;
  taxableCents: number;
  vatCents: number;
  exemptionReason: string | null;
  exemptionReasonCode: string | null;
}

/** What is sold (the letter of the French billing framework, BT-23): B goods, S services, M both. */
export const operationCategories = ['goods', 'services', 'mixed'] as const;
export type OperationCategory = (typeof operationCategories)[number];

/**
 * The terms the French e-invoicing reform adds to a document in its scope (a French seller invoicing a French
 * business), fixed when it is issued (domain/core/invoices/frenchCtc.ts) so the document renders the same ever
 * after: the billing framework (BT-23), the coded notes (BG-1: treatment BAR, mentions PMT, PMD, AAB) and the
 * electronic addresses of seller and buyer (BT-34, BT-49). Null for documents outside that scope or issued before.
 */
export interface FrenchCtcTerms {
  businessProcess: string;
  notes: { subject: string; text: string }[];
  sellerEndpoint: { id: string; scheme: string } | null;
  buyerEndpoint: { id: string; scheme: string } | null;
}

export const invoiceKinds = ['invoice', 'credit_note'] as const;
export type InvoiceKind = (typeof invoiceKinds)[number];

/**
 * draft: editable, no number. Then, for an invoice (derived from payments and credit notes, see
 * domain/core/invoices/settlement.ts): issued, partially_paid, paid, partially_credited, credited.
 * A credit note is issued when created and stays issued.
 */
export const invoiceStatuses = ['draft', 'issued', 'partially_paid', 'paid', 'partially_credited', 'credited'] as const;
export type InvoiceStatus = (typeof invoiceStatuses)[number];

export interface PartyAddress {
  line1: string;
  line2: string | null;
  postalCode: string | null;
  city: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

/** Seller or buyer as printed on the document, copied when it is issued (later edits of the source change nothing). */
export interface InvoiceParty {
  name: string;
  /** SIREN (France, scheme 0002) or another legal registration number: BT-30 / BT-47. */
  legalId: string | null;
  /** SIRET of the establishment (seller). */
  siret: string | null;
  /** Intra-community VAT number: BT-31 / BT-48. */
  vatNumber: string | null;
  address: PartyAddress | null;
  email: string | null;
  /** Seller only: where to pay (BT-84, BT-86). */
  iban: string | null;
  bic: string | null;
}

/** What a draft says about its buyer beyond the CRM customer (the customer has no VAT number field). */
export interface BuyerOverrides {
  vatNumber: string | null;
  legalId: string | null;
  address: PartyAddress | null;
}

/**
 * An invoice or a credit note (kind). While draft it is edited freely; issuing gives it the next number of
 * its gapless sequence and copies seller and buyer, after which the database refuses any change to it except
 * its settlement (status, paidCents, creditedCents: trigger inv_invoices_immutable, migration 000600) and
 * refuses its deletion. Amounts are in minor units of `currency` (cents of EUR, yen of JPY), lines and VAT breakdowns as computed by amounts.ts.
 */
/** Column sizes of a document's and a payment's texts, which the request bodies take too. */
export const INVOICE_TEXT_LENGTHS = {
  paymentTerms: 1000,
  reference: 100,
  note: 2000,
  creditReason: 500,
  paymentReference: 140,
} as const;

export const Invoice = defineEntity({
  name: 'Invoice',
  tableName: 'inv_invoices',
  filters: tenantFilter,
  indexes: [
    { properties: ['tenantId', 'kind', 'status', 'id'] },
    { properties: ['tenantId', 'customerId', 'issuedAt', 'id'] },
    { properties: ['tenantId', 'creditedInvoiceId'] },
  ],
  uniques: [{ properties: ['tenantId', 'kind', 'sequenceYear', 'sequenceNo'] }, { properties: ['tenantId', 'number'] }],
  checks: [
    {
      name: 'inv_invoices_issued_check',
      expression: `(status = 'draft') = (number is null) and (status = 'draft') = (issued_at is null) and (status = 'draft' or (issue_date is not null and sequence_no > 0 and seller is not null and buyer is not null))`,
    },
    {
      name: 'inv_invoices_credit_note_check',
      expression: `(kind = 'credit_note') = (credited_invoice_id is not null)`,
    },
    {
      name: 'inv_invoices_amounts_check',
      expression: `paid_cents >= 0 and credited_cents >= 0 and grand_total_cents >= 0`,
    },
    {
      name: 'inv_invoices_exchange_check',
      expression: `((exchange_rate is null or exchange_rate > 0) and (accounting_currency is null or (currency = accounting_currency) = (exchange_rate is null)))`,
    },
  ],
  properties: {
    ...tenantColumns(),
    updatedAt: updatedAt(),
    kind: p.enum([...invoiceKinds]).default('invoice'),
    status: p.enum([...invoiceStatuses]).default('draft'),
    /** The CRM customer (a foreign key: a customer with invoices is not deleted, 409 customer_in_use). */
    customerId: () => p.manyToOne(Customer).mapToPk().fieldName('customer_id').deleteRule('restrict'),
    /** Null while draft; e.g. F-2026-00042. */
    number: p.string().length(40).nullable(),
    /** Year of the counter that gave the number (0 without yearly reset) and its value. */
    sequenceYear: p.integer().nullable(),
    sequenceNo: p.integer().nullable(),
    /** The issuing day (Europe/Paris), BT-2. */
    issueDate: p.date().nullable(),
    issuedAt: p.datetime().nullable(),
    dueDate: p.date().nullable(),
    paymentTerms: p.string().length(INVOICE_TEXT_LENGTHS.paymentTerms).nullable(),
    /** Actual delivery date (BT-72); the issue date when absent. */
    deliveryDate: p.date().nullable(),
    /** The buyer's reference (BT-10) and purchase order (BT-13). */
    buyerReference: p.string().length(INVOICE_TEXT_LENGTHS.reference).nullable(),
    orderReference: p.string().length(INVOICE_TEXT_LENGTHS.reference).nullable(),
    note: p.string().length(INVOICE_TEXT_LENGTHS.note).nullable(),
    /** ISO 4217 (BT-5); every amount is an integer of its minor unit (domain/core/invoices/currencies.ts). */
    currency: p.string().length(3).default('EUR'),
    /** The organisation's accounting currency when issued (BT-6 when it differs from the currency); null while draft. */
    accountingCurrency: p.string().length(3).nullable(),
    /**
     * Units of the accounting currency for one unit of the currency, as given on the draft or at issue; null in the
     * accounting currency. Frozen at issue with the rest of the row.
     */
    exchangeRate: p.decimal('string').precision(22).scale(10).nullable(),
    lines: p.json<InvoiceLine[]>(),
    vatBreakdown: p.json<VatBreakdown[]>(),
    lineTotalCents: p.bigint('number'),
    taxExclusiveCents: p.bigint('number'),
    vatTotalCents: p.bigint('number'),
    grandTotalCents: p.bigint('number'),
    /** Settlement: payments recorded and credit notes issued against the invoice. */
    paidCents: p.bigint('number').default(0),
    creditedCents: p.bigint('number').default(0),
    buyerOverrides: p.json<BuyerOverrides>(),
    seller: p.json<InvoiceParty>().nullable(),
    buyer: p.json<InvoiceParty>().nullable(),
    /** Credit notes: the invoice they correct (BT-25) and why. */
    creditedInvoiceId: p.uuid().nullable(),
    creditReason: p.string().length(INVOICE_TEXT_LENGTHS.creditReason).nullable(),
    /** What is sold: the billing framework's letter (BT-23). */
    operationCategory: p.enum([...operationCategories]).default('services'),
    /** The French CTC terms fixed at issue (null outside the reform's scope, and for documents issued before). */
    ctc: p.json<FrenchCtcTerms>().nullable(),
    createdBy: p.uuid().nullable(),
  },
});
export type Invoice = InferEntity<typeof Invoice>;

export const paymentMethods = ['bank_transfer', 'card', 'direct_debit', 'cheque', 'cash', 'other'] as const;
export type PaymentMethod = (typeof paymentMethods)[number];

/**
 * A payment received against an invoice. Append-only: the database refuses updates and deletions. A payment
 * made online carries the provider's reference (the Stripe Checkout Session), unique: it is recorded once.
 */
export const InvoicePayment = defineEntity({
  name: 'InvoicePayment',
  tableName: 'inv_payments',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'invoiceId', 'id'] }],
  uniques: [{ properties: ['tenantId', 'providerReference'] }],
  checks: [{ name: 'inv_payments_amount_check', expression: 'amount_cents > 0' }],
  properties: {
    ...tenantColumns(),
    invoiceId: p.uuid(),
    amountCents: p.bigint('number'),
    paidOn: p.date(),
    method: p.enum([...paymentMethods]),
    reference: p.string().length(INVOICE_TEXT_LENGTHS.paymentReference).nullable(),
    /** Online payments: the payment provider's reference (`stripe:<checkout session id>`), null otherwise. */
    providerReference: p.string().length(255).nullable(),
    recordedBy: p.uuid().nullable(),
  },
});
export type InvoicePayment = InferEntity<typeof InvoicePayment>;
