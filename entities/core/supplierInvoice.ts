import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';
import { Customer } from './customer';

/** How a supplier invoice came in. */
export const supplierInvoiceFormats = ['factur-x', 'cii', 'ubl'] as const;
export const supplierInvoiceChannels = ['upload', 'platform'] as const;
/** received: in the inbox; then approved, refused (with a reason) or paid (lifecycle statuses). */
export const supplierInvoiceStatuses = ['received', 'approved', 'refused', 'paid'] as const;
export type SupplierInvoiceStatus = (typeof supplierInvoiceStatuses)[number];

export interface SupplierInvoiceAddress {
  line1: string | null;
  line2: string | null;
  postalCode: string | null;
  city: string | null;
  country: string | null;
}

/** Seller or buyer as the document names them. */
export interface SupplierInvoiceParty {
  name: string;
  siren: string | null;
  legalId: string | null;
  vatNumber: string | null;
  electronicAddress: string | null;
  address: SupplierInvoiceAddress | null;
}

export interface SupplierInvoiceLine {
  id: string;
  name: string;
  quantity: string;
  unitCode: string;
  netPriceCents: number;
  netCents: number;
  vatCategory: string;
  vatRate: string | null;
}

export interface SupplierInvoiceVat {
  category: string;
  rate: string | null;
  taxableCents: number;
  vatCents: number;
  exemptionReason: string | null;
}

export interface SupplierInvoicePaymentMeans {
  typeCode: string | null;
  iban: string | null;
  bic: string | null;
}

export interface SupplierInvoiceNote {
  subject: string | null;
  text: string;
}

/**
 * An invoice received from a supplier (reception side of the e-invoicing reform): its original bytes exactly as
 * received (a Factur-X PDF or an XML) and what was read from them. Like an issued invoice it never changes: the
 * trigger inv_supplier_invoices_immutable (migration 20261211020000) refuses any UPDATE but its lifecycle status
 * and any DELETE. One per supplier, number and year (`sellerKey`: the seller's SIREN, else its VAT number, else
 * its name): a second copy is recognised as a duplicate by the unique constraint.
 */
export const SupplierInvoice = defineEntity({
  name: 'SupplierInvoice',
  tableName: 'inv_supplier_invoices',
  filters: tenantFilter,
  indexes: [
    { properties: ['tenantId', 'id'] },
    { properties: ['tenantId', 'supplierId', 'id'] },
    { properties: ['tenantId', 'status', 'id'] },
  ],
  uniques: [
    { name: 'inv_supplier_invoices_duplicate_key', properties: ['tenantId', 'sellerKey', 'issueYear', 'number'] },
  ],
  checks: [
    { name: 'inv_supplier_invoices_refusal_check', expression: `(status = 'refused') = (status_reason is not null)` },
  ],
  properties: {
    ...tenantColumns(),
    updatedAt: updatedAt(),
    status: p.enum([...supplierInvoiceStatuses]).default('received'),
    /** Why it was refused. */
    statusReason: p.string().length(1000).nullable(),
    statusChangedAt: p.datetime().nullable(),
    format: p.enum([...supplierInvoiceFormats]),
    channel: p.enum([...supplierInvoiceChannels]),
    /** The bytes as received, never altered, and their SHA-256 (hex). */
    original: p.blob(),
    originalSha256: p.string().length(64),
    originalSize: p.integer(),
    contentType: p.string().length(60),
    /** The CRM party (role supplier) the seller was matched to or created as. */
    supplierId: () => p.manyToOne(Customer).mapToPk().fieldName('supplier_id').deleteRule('restrict'),
    sellerKey: p.string().length(220),
    number: p.string().length(200),
    typeCode: p.string().length(3),
    issueDate: p.date(),
    issueYear: p.integer(),
    dueDate: p.date().nullable(),
    currency: p.string().length(3),
    buyerReference: p.string().length(200).nullable(),
    orderReference: p.string().length(200).nullable(),
    paymentTerms: p.text().nullable(),
    seller: p.json<SupplierInvoiceParty>(),
    buyer: p.json<SupplierInvoiceParty>(),
    lines: p.json<SupplierInvoiceLine[]>(),
    vatBreakdown: p.json<SupplierInvoiceVat[]>(),
    paymentMeans: p.json<SupplierInvoicePaymentMeans[]>(),
    notes: p.json<SupplierInvoiceNote[]>(),
    lineTotalCents: p.bigint('number'),
    taxExclusiveCents: p.bigint('number'),
    vatTotalCents: p.bigint('number'),
    grandTotalCents: p.bigint('number'),
    duePayableCents: p.bigint('number'),
    receivedBy: p.uuid().nullable(),
  },
});
export type SupplierInvoice = InferEntity<typeof SupplierInvoice>;

/**
 * Which CRM party a supplier's identifier (SIREN or VAT number) names, so its next invoice goes to the same party.
 * The primary key makes two concurrent first invoices of one supplier create one party.
 */
export const SupplierParty = defineEntity({
  name: 'SupplierParty',
  tableName: 'inv_supplier_parties',
  filters: tenantFilter,
  properties: {
    tenantId: p.uuid().primary(),
    scheme: p.enum(['siren', 'vat'] as const).primary(),
    identifier: p.string().length(40).primary(),
    customerId: () => p.manyToOne(Customer).mapToPk().fieldName('customer_id').deleteRule('cascade'),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type SupplierParty = InferEntity<typeof SupplierParty>;

/**
 * Lifecycle statuses the suite emits (the reform's CDAR codes): on a received invoice approved (205), refused
 * (210, with its reason) and paid (211 "Paiement transmis"); on an issued invoice "Encaissée" (212) when a
 * payment settles it.
 */
export const emittedStatuses = ['approved', 'refused', 'paid', 'collected'] as const;
export type EmittedStatus = (typeof emittedStatuses)[number];
export const statusMessageStates = ['queued', 'sent', 'failed', 'not_sent'] as const;

/**
 * One status message to the platform, written with the status change it reports and sent by a job staged in the
 * same transaction (jobs/stageJob: enqueued once committed, or by the relay after a crash), so it is never lost;
 * one per document and status (unique), and the platform gets its id as Idempotency-Key, so a retried or replayed
 * job never reports a status twice.
 */
export const EInvoiceStatusMessage = defineEntity({
  name: 'EInvoiceStatusMessage',
  tableName: 'inv_einvoice_status_messages',
  filters: tenantFilter,
  indexes: [
    { name: 'inv_status_messages_tenant_supplier_invoice_index', properties: ['tenantId', 'supplierInvoiceId'] },
    { name: 'inv_status_messages_tenant_invoice_index', properties: ['tenantId', 'invoiceId'] },
  ],
  uniques: [
    { name: 'inv_status_messages_supplier_invoice_status_unique', properties: ['supplierInvoiceId', 'status'] },
    { name: 'inv_status_messages_invoice_status_unique', properties: ['invoiceId', 'status'] },
  ],
  checks: [
    {
      name: 'inv_einvoice_status_messages_subject_check',
      expression: '(supplier_invoice_id is null) <> (invoice_id is null)',
    },
  ],
  properties: {
    ...tenantColumns(),
    updatedAt: updatedAt(),
    supplierInvoiceId: p.uuid().nullable(),
    invoiceId: p.uuid().nullable(),
    status: p.enum([...emittedStatuses]),
    code: p.string().length(3),
    reason: p.string().length(1000).nullable(),
    state: p.enum([...statusMessageStates]).default('queued'),
    attempts: p.integer().default(0),
    lastError: p.string().length(1000).nullable(),
    sentAt: p.datetime().nullable(),
    platformMessageId: p.string().length(200).nullable(),
  },
});
export type EInvoiceStatusMessage = InferEntity<typeof EInvoiceStatusMessage>;
