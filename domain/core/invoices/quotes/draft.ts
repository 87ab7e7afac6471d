import type { BuyerOverrides } from '../../../../entities/core/invoice';
import type { Quote } from '../../../../entities/core/quote';
import { computeInvoice, type LineInput } from '../amounts';
import { invoiceToday } from '../lookup';
import { invalidField } from '../../../../lib/errors';
import { addDays } from '../../../../lib/calendar';
import { DEFAULT_VALIDITY_DAYS } from './rules';

/** What a quote draft is made of (POST creates one; PATCH changes some of it while draft). */
export interface QuoteDraftProps {
  lines: LineInput[];
  /** ISO 4217; by default the deal's currency, else the accounting currency (createQuote). */
  currency?: string;
  validUntil?: string;
  paymentTerms?: string;
  note?: string;
  buyer?: {
    vatNumber?: string;
    legalId?: string;
    address?: { line1: string; line2?: string; postalCode?: string; city?: string; country: string };
  };
}

const text = (value: string | undefined) => value?.trim() || null;

/** A validity date must not be in the past (400 on `validUntil`). */
export function checkValidUntil(validUntil: string, today = invoiceToday()): void {
  if (validUntil < today) throw invalidField('validUntil', 'validUntil must be today or later');
}

export function buyerOverridesOf(buyer: QuoteDraftProps['buyer']): BuyerOverrides {
  return {
    vatNumber: buyer?.vatNumber?.replace(/\s+/g, '').toUpperCase() || null,
    legalId: buyer?.legalId?.replace(/\s+/g, '') || null,
    address: buyer?.address
      ? {
          ...buyer.address,
          line2: buyer.address.line2 ?? null,
          postalCode: buyer.address.postalCode ?? null,
          city: buyer.address.city ?? null,
          country: buyer.address.country.toUpperCase(),
        }
      : null,
  };
}

/** Computed lines and totals (as an invoice's: amounts.ts). */
export function amountFields(lines: LineInput[]) {
  const computed = computeInvoice(lines);
  return {
    lines: computed.lines,
    vatBreakdown: computed.vatBreakdown,
    lineTotalCents: computed.lineTotalCents,
    taxExclusiveCents: computed.taxExclusiveCents,
    vatTotalCents: computed.vatTotalCents,
    grandTotalCents: computed.grandTotalCents,
  } satisfies Partial<Quote>;
}

/** The columns of a new draft. */
export function quoteDraftFields(props: QuoteDraftProps) {
  const validUntil = props.validUntil ?? addDays(invoiceToday(), DEFAULT_VALIDITY_DAYS);
  checkValidUntil(validUntil);
  return {
    ...amountFields(props.lines),
    validUntil,
    paymentTerms: text(props.paymentTerms),
    note: text(props.note),
    buyerOverrides: buyerOverridesOf(props.buyer),
  } satisfies Partial<Quote>;
}

/** The columns a PATCH changes: only those it names. */
export function quotePatchFields(props: Partial<QuoteDraftProps>) {
  if (props.validUntil !== undefined) checkValidUntil(props.validUntil);
  return {
    ...(props.lines ? amountFields(props.lines) : {}),
    ...(props.validUntil !== undefined ? { validUntil: props.validUntil } : {}),
    ...(props.paymentTerms !== undefined ? { paymentTerms: text(props.paymentTerms) } : {}),
    ...(props.note !== undefined ? { note: text(props.note) } : {}),
    ...(props.buyer !== undefined ? { buyerOverrides: buyerOverridesOf(props.buyer) } : {}),
  } satisfies Partial<Quote>;
}
