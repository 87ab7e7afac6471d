import type { BuyerOverrides, Invoice, OperationCategory } from '../../../entities/core/invoice';
import { computeInvoice, type LineInput } from './amounts';
import { checkDocumentCurrency, parseRate, rateAtIssue } from './currencies';

/** What a draft is made of (POST creates one, PUT replaces one). */
export interface DraftProps {
  /** A customer of the CRM. */
  customerId: string;
  lines: LineInput[];
  /** ISO 4217 (BT-5); by default the organisation's accounting currency. Amounts are in its minor units. */
  currency?: string;
  /** Units of the accounting currency for one unit of `currency` (required at issue when they differ). */
  exchangeRate?: string;
  dueDate?: string;
  paymentTerms?: string;
  deliveryDate?: string;
  buyerReference?: string;
  orderReference?: string;
  note?: string;
  /** What is sold (BT-23's letter); services by default. */
  operationCategory?: OperationCategory;
  /** What the invoice says about the buyer beyond the CRM customer. */
  buyer?: {
    vatNumber?: string;
    legalId?: string;
    address?: { line1: string; line2?: string; postalCode?: string; city?: string; country: string };
  };
}

const text = (value: string | undefined) => value?.trim() || null;

/**
 * The draft's columns from its props: computed lines and totals, normalised buyer details, the currency (400
 * `unknown_currency` / `currency_not_supported`, currencies.ts) and the exchange rate given (checked at issue).
 */
export function draftFields(props: DraftProps, accountingCurrency: string) {
  const currency = checkDocumentCurrency(props.currency ?? accountingCurrency);
  const given = props.exchangeRate === undefined ? null : parseRate(props.exchangeRate);
  // Refused in the accounting currency (400 exchange_rate_not_applicable), kept for issue otherwise.
  const exchangeRate = currency === accountingCurrency ? rateAtIssue(currency, accountingCurrency, given) : given;
  const computed = computeInvoice(props.lines);
  const buyerOverrides: BuyerOverrides = {
    vatNumber: props.buyer?.vatNumber?.replace(/\s+/g, '').toUpperCase() || null,
    legalId: props.buyer?.legalId?.replace(/\s+/g, '') || null,
    address: props.buyer?.address
      ? {
          ...props.buyer.address,
          line2: props.buyer.address.line2 ?? null,
          postalCode: props.buyer.address.postalCode ?? null,
          city: props.buyer.address.city ?? null,
          country: props.buyer.address.country.toUpperCase(),
        }
      : null,
  };
  return {
    customerId: props.customerId,
    currency,
    exchangeRate,
    lines: computed.lines,
    vatBreakdown: computed.vatBreakdown,
    lineTotalCents: computed.lineTotalCents,
    taxExclusiveCents: computed.taxExclusiveCents,
    vatTotalCents: computed.vatTotalCents,
    grandTotalCents: computed.grandTotalCents,
    dueDate: props.dueDate ?? null,
    paymentTerms: text(props.paymentTerms),
    deliveryDate: props.deliveryDate ?? null,
    buyerReference: text(props.buyerReference),
    orderReference: text(props.orderReference),
    note: text(props.note),
    operationCategory: props.operationCategory ?? 'services',
    buyerOverrides,
  } satisfies Partial<Invoice>;
}
