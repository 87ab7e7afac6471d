import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantFilter, updatedAt } from '../base';
import { INVOICE_TEXT_LENGTHS, invoiceKinds } from './invoice';

/**
 * The counter of one numbering sequence: per organisation, document kind and year (0 when numbers do not reset
 * yearly). Issuing increments it inside the issuing transaction (its row lock serialises issuers), so a rolled
 * back issue gives its number back and numbers follow issue order without gaps.
 */
export const InvoiceSequence = defineEntity({
  name: 'InvoiceSequence',
  tableName: 'inv_sequences',
  filters: tenantFilter,
  properties: {
    tenantId: p.uuid().primary(),
    kind: p.enum([...invoiceKinds]).primary(),
    year: p.integer().primary(),
    lastNo: p.integer(),
  },
});
export type InvoiceSequence = InferEntity<typeof InvoiceSequence>;

/** Numbering and default terms of an organisation's invoices (defaults apply until it saves its own). */
/** Longest numbering prefix ({YYYY} counted as written). */
export const INVOICE_PREFIX_LENGTH = 20;

export const InvoiceSettings = defineEntity({
  name: 'InvoiceSettings',
  tableName: 'inv_settings',
  filters: tenantFilter,
  properties: {
    tenantId: p.uuid().primary(),
    /** `{YYYY}` is replaced by the issue year. */
    invoicePrefix: p.string().length(INVOICE_PREFIX_LENGTH),
    creditNotePrefix: p.string().length(INVOICE_PREFIX_LENGTH),
    /** Counters start again at 1 each calendar year. */
    yearlyReset: p.boolean(),
    /** Digits of the counter, zero-padded. */
    digits: p.integer(),
    /** Days from the issue date to the due date when a draft gives none. */
    dueDays: p.integer(),
    /** Payment terms printed when a draft gives none (French B2B: penalty rate and the 40 EUR recovery indemnity). */
    paymentTerms: p.string().length(INVOICE_TEXT_LENGTHS.paymentTerms),
    /** ISO 4217: the currency of the books (FEC) and the default currency of documents. */
    accountingCurrency: p.string().length(3).default('EUR'),
    updatedAt: updatedAt(),
  },
});
export type InvoiceSettings = InferEntity<typeof InvoiceSettings>;
