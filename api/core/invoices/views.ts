import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsDateString,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsString,
  IsUUID,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../../http/nullable';
import { einvoiceStatuses } from '../../../entities/core/einvoice';
import {
  invoiceKinds,
  invoiceStatuses,
  operationCategories,
  paymentMethods,
  vatCategories,
  type Invoice,
  type InvoiceLine,
  type InvoiceParty,
  type InvoicePayment,
  type PartyAddress,
  type VatBreakdown,
} from '../../../entities/core/invoice';
import type { EInvoiceState } from '../../../domain/core/invoices/einvoice/getEInvoice';
import type { InvoiceDetail } from '../../../domain/core/invoices/getInvoice';
import { canonicalRate, exchangeOf, vatInAccounting } from '../../../domain/core/invoices/currencies';
import type { InvoiceSettingsValues } from '../../../domain/core/invoices/settings';
import type { AccountingSettingsValues } from '../../../domain/core/invoices/accounting/accountingSettings';
import { isOverdue, outstandingOf } from '../../../domain/core/invoices/settlement';
import type { Lean } from '../../../lib/lean';
import { mapPage, type Page } from '../../../lib/pagination';
import { iso, isoTime } from '../../http/present';
import { eInvoiceStatus, invoiceSummaryStatus, vatBreakdownVatCents } from './views.docs';

/** Presenters of the invoicing routes. Amounts are integers in cents (EUR), rates and percentages decimals. */

export class InvoiceLineView {
  @IsInt() position!: number;
  @IsString() description!: string;
  @IsNumber() quantity!: number;
  @IsString() unitCode!: string;
  @IsInt() unitPriceCents!: number;
  @IsIn(vatCategories) vatCategory!: string;
  @JSONSchema({ description: 'Percent' }) @IsNumber() vatRate!: number;
  @Nullable() @IsString() exemptionReason!: string | null;
  @Nullable() @IsString() exemptionReasonCode!: string | null;
  @Nullable() @IsNumber() discountPercent!: number | null;
  @IsInt() discountCents!: number;
  @JSONSchema({ description: 'round(quantity × unit price)' }) @IsInt() grossCents!: number;
  @JSONSchema({ description: 'gross − discount (BT-131)' }) @IsInt() netCents!: number;

  static from(l: InvoiceLine): InvoiceLineView {
    return {
      position: l.position,
      description: l.description,
      quantity: l.quantityMilli / 1000,
      unitCode: l.unitCode,
      unitPriceCents: l.unitPriceCents,
      vatCategory: l.vatCategory,
      vatRate: l.vatRateBp / 100,
      exemptionReason: l.exemptionReason,
      exemptionReasonCode: l.exemptionReasonCode,
      discountPercent: l.discountPercentBp === null ? null : l.discountPercentBp / 100,
      discountCents: l.discountCents,
      grossCents: l.grossCents,
      netCents: l.netCents,
    };
  }
}

export class VatBreakdownView {
  @IsIn(vatCategories) category!: string;
  @JSONSchema({ description: 'Percent' }) @IsNumber() rate!: number;
  @JSONSchema({ description: 'Σ net amounts of its lines (BT-116)' }) @IsInt() taxableCents!: number;
  @JSONSchema({ description: vatBreakdownVatCents }) @IsInt() vatCents!: number;
  @Nullable() @IsString() exemptionReason!: string | null;
  @Nullable() @IsString() exemptionReasonCode!: string | null;

  static from(g: VatBreakdown): VatBreakdownView {
    return {
      category: g.category,
      rate: g.rateBp / 100,
      taxableCents: g.taxableCents,
      vatCents: g.vatCents,
      exemptionReason: g.exemptionReason,
      exemptionReasonCode: g.exemptionReasonCode,
    };
  }
}

export class PartyAddressView {
  @IsString() line1!: string;
  @Nullable() @IsString() line2!: string | null;
  @Nullable() @IsString() postalCode!: string | null;
  @Nullable() @IsString() city!: string | null;
  @IsString() country!: string;

  static from(a: PartyAddress | null): PartyAddressView | null {
    return a
      ? {
          line1: a.line1,
          line2: a.line2 ?? null,
          postalCode: a.postalCode ?? null,
          city: a.city ?? null,
          country: a.country,
        }
      : null;
  }
}

export class InvoicePartyView {
  @IsString() name!: string;
  @Nullable() @IsString() legalId!: string | null;
  @Nullable() @IsString() siret!: string | null;
  @Nullable() @IsString() vatNumber!: string | null;
  @Nullable() @ValidateNested() @Type(() => PartyAddressView) address!: PartyAddressView | null;
  @Nullable() @IsString() email!: string | null;
  @Nullable() @IsString() iban!: string | null;
  @Nullable() @IsString() bic!: string | null;

  static from(p: InvoiceParty | null | undefined): InvoicePartyView | null {
    return p
      ? {
          name: p.name,
          legalId: p.legalId,
          siret: p.siret,
          vatNumber: p.vatNumber,
          address: PartyAddressView.from(p.address),
          email: p.email,
          iban: p.iban,
          bic: p.bic,
        }
      : null;
  }
}

export class BuyerDetailsView {
  @Nullable() @IsString() vatNumber!: string | null;
  @Nullable() @IsString() legalId!: string | null;
  @Nullable() @ValidateNested() @Type(() => PartyAddressView) address!: PartyAddressView | null;
}

export class InvoiceSummaryView {
  @IsUUID() id!: string;
  @IsIn(invoiceKinds) kind!: string;
  @JSONSchema({ description: invoiceSummaryStatus })
  @IsIn(invoiceStatuses)
  status!: string;
  @JSONSchema({ description: 'Null while draft' }) @Nullable() @IsString() number!: string | null;
  @IsUUID() customerId!: string;
  @Nullable() @IsString() issueDate!: string | null;
  @Nullable() @IsString() dueDate!: string | null;
  @IsString() currency!: string;
  @JSONSchema({ description: 'Σ line net amounts (BT-106)' }) @IsInt() lineTotalCents!: number;
  @JSONSchema({ description: 'Total without VAT (BT-109)' }) @IsInt() taxExclusiveCents!: number;
  @JSONSchema({ description: 'Σ VAT of the breakdowns (BT-110)' }) @IsInt() vatTotalCents!: number;
  @JSONSchema({ description: 'Total with VAT (BT-112)' }) @IsInt() grandTotalCents!: number;
  @IsInt() paidCents!: number;
  @JSONSchema({ description: 'Σ grand totals of its credit notes' }) @IsInt() creditedCents!: number;
  @JSONSchema({ description: 'grand total − paid − credited (0 for drafts and credit notes)' })
  @IsInt()
  outstandingCents!: number;
  @JSONSchema({ description: 'Something is outstanding after the due date' }) @IsBoolean() overdue!: boolean;
  @JSONSchema({ description: 'Credit notes: the invoice they correct' }) @Nullable() @IsUUID() creditedInvoiceId!:
    string | null;
  @Nullable() @IsDateString() issuedAt!: string | null;
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(i: Lean<Invoice>): InvoiceSummaryView {
    return {
      id: i.id,
      kind: i.kind,
      status: i.status,
      number: i.number ?? null,
      customerId: i.customerId,
      issueDate: i.issueDate ?? null,
      dueDate: i.dueDate ?? null,
      currency: i.currency,
      lineTotalCents: i.lineTotalCents,
      taxExclusiveCents: i.taxExclusiveCents,
      vatTotalCents: i.vatTotalCents,
      grandTotalCents: i.grandTotalCents,
      paidCents: i.paidCents,
      creditedCents: i.creditedCents,
      outstandingCents: outstandingOf(i),
      overdue: isOverdue(i),
      creditedInvoiceId: i.creditedInvoiceId ?? null,
      issuedAt: iso(i.issuedAt),
      createdAt: isoTime(i.createdAt),
      updatedAt: isoTime(i.updatedAt),
    };
  }
}

export class InvoicePageView {
  @ValidateNested({ each: true }) @Type(() => InvoiceSummaryView) items!: InvoiceSummaryView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<Lean<Invoice>>): InvoicePageView {
    return mapPage(page, InvoiceSummaryView.from);
  }
}

export class PaymentView {
  @IsUUID() id!: string;
  @IsInt() amountCents!: number;
  @IsString() paidOn!: string;
  @IsIn(paymentMethods) method!: string;
  @Nullable() @IsString() reference!: string | null;
  @IsDateString() recordedAt!: string;

  static from(p: Lean<InvoicePayment>): PaymentView {
    return {
      id: p.id,
      amountCents: p.amountCents,
      paidOn: p.paidOn,
      method: p.method,
      reference: p.reference ?? null,
      recordedAt: isoTime(p.createdAt),
    };
  }
}

export class RelatedDocumentView {
  @IsUUID() id!: string;
  @IsIn(invoiceKinds) kind!: string;
  @Nullable() @IsString() number!: string | null;
  @Nullable() @IsString() issueDate!: string | null;
  @IsInt() grandTotalCents!: number;
}

const vatTotalAccountingOf = (i: Lean<Invoice>): number | null => {
  const terms = i.status === 'draft' ? null : exchangeOf(i);
  return terms
    ? vatInAccounting(
        i.vatBreakdown.map((g) => g.vatCents),
        terms,
      ).total
    : null;
};

export class InvoiceView extends InvoiceSummaryView {
  @ValidateNested({ each: true }) @Type(() => InvoiceLineView) lines!: InvoiceLineView[];
  @ValidateNested({ each: true }) @Type(() => VatBreakdownView) vatBreakdown!: VatBreakdownView[];
  @Nullable() @IsString() paymentTerms!: string | null;
  @Nullable() @IsString() deliveryDate!: string | null;
  @Nullable() @IsString() buyerReference!: string | null;
  @Nullable() @IsString() orderReference!: string | null;
  @Nullable() @IsString() note!: string | null;
  @JSONSchema({
    description: 'What is sold: goods, services or mixed (the French billing framework BT-23: B1, S1, M1)',
  })
  @IsIn(operationCategories)
  operationCategory!: string;
  @JSONSchema({ description: 'What the draft says about the buyer beyond the CRM customer' })
  @ValidateNested()
  @Type(() => BuyerDetailsView)
  buyerDetails!: BuyerDetailsView;
  @JSONSchema({ description: 'Seller as printed, copied from the business record at issue (null while draft)' })
  @Nullable()
  @ValidateNested()
  @Type(() => InvoicePartyView)
  seller!: InvoicePartyView | null;
  @JSONSchema({ description: 'Buyer as printed, copied from the customer at issue (null while draft)' })
  @Nullable()
  @ValidateNested()
  @Type(() => InvoicePartyView)
  buyer!: InvoicePartyView | null;
  @Nullable() @IsString() creditReason!: string | null;
  @JSONSchema({ description: 'The accounting currency it was issued with (BT-6 when it differs); null while draft' })
  @Nullable()
  @IsString()
  accountingCurrency!: string | null;
  @JSONSchema({
    description:
      'Units of the accounting currency for 1 unit of currency, recorded at issue (or given on the draft); null in the accounting currency',
  })
  @Nullable()
  @IsString()
  exchangeRate!: string | null;
  @JSONSchema({
    description:
      'The VAT total in the accounting currency (BT-111: each breakdown converted at the rate, rounded, summed); null unless issued in another currency',
  })
  @Nullable()
  @IsInt()
  vatTotalAccountingCents!: number | null;
  @ValidateNested({ each: true }) @Type(() => PaymentView) payments!: PaymentView[];
  @JSONSchema({ description: 'An invoice: its credit notes. A credit note: the invoice it corrects' })
  @ValidateNested({ each: true })
  @Type(() => RelatedDocumentView)
  related!: RelatedDocumentView[];

  static fromDetail({ invoice: i, payments, related }: InvoiceDetail): InvoiceView {
    const o = i.buyerOverrides;
    return {
      ...InvoiceSummaryView.from(i),
      lines: i.lines.map(InvoiceLineView.from),
      vatBreakdown: i.vatBreakdown.map(VatBreakdownView.from),
      paymentTerms: i.paymentTerms ?? null,
      deliveryDate: i.deliveryDate ?? null,
      buyerReference: i.buyerReference ?? null,
      orderReference: i.orderReference ?? null,
      note: i.note ?? null,
      operationCategory: i.operationCategory,
      buyerDetails: { vatNumber: o.vatNumber, legalId: o.legalId, address: PartyAddressView.from(o.address) },
      seller: InvoicePartyView.from(i.seller),
      buyer: InvoicePartyView.from(i.buyer),
      creditReason: i.creditReason ?? null,
      accountingCurrency: i.accountingCurrency ?? null,
      exchangeRate: i.exchangeRate ? canonicalRate(i.exchangeRate) : null,
      vatTotalAccountingCents: vatTotalAccountingOf(i),
      payments: payments.map(PaymentView.from),
      related: related.map((r) => ({
        id: r.id,
        kind: r.kind,
        number: r.number ?? null,
        issueDate: r.issueDate ?? null,
        grandTotalCents: r.grandTotalCents,
      })),
    };
  }
}

export class EInvoiceEventView {
  @IsIn(einvoiceStatuses) status!: string;
  @IsDateString() at!: string;
  @Nullable() @IsString() detail!: string | null;
}

export class EInvoiceView {
  @IsUUID() invoiceId!: string;
  @JSONSchema({ description: eInvoiceStatus })
  @IsIn(['not_submitted', ...einvoiceStatuses])
  status!: string;
  @Nullable() @IsString() platform!: string | null;
  @JSONSchema({ description: "The platform's id of the document once it accepted it" })
  @Nullable()
  @IsString()
  platformId!: string | null;
  @Nullable() @IsDateString() submittedAt!: string | null;
  @IsInt() attempts!: number;
  @Nullable() @IsString() lastError!: string | null;
  @JSONSchema({ description: 'Every status it went through, oldest first' })
  @ValidateNested({ each: true })
  @Type(() => EInvoiceEventView)
  history!: EInvoiceEventView[];

  static from({ invoiceId, submission: s, history }: EInvoiceState): EInvoiceView {
    return {
      invoiceId,
      status: s?.status ?? 'not_submitted',
      platform: s?.platform ?? null,
      platformId: s?.platformId ?? null,
      submittedAt: iso(s?.submittedAt),
      attempts: s?.attempts ?? 0,
      lastError: s?.lastError ?? null,
      history: history.map((e) => ({ status: e.status, at: isoTime(e.occurredAt), detail: e.detail ?? null })),
    };
  }
}

export class InvoiceSettingsView {
  @IsString() invoicePrefix!: string;
  @IsString() creditNotePrefix!: string;
  @IsBoolean() yearlyReset!: boolean;
  @IsInt() digits!: number;
  @IsInt() dueDays!: number;
  @IsString() paymentTerms!: string;
  @JSONSchema({ description: 'ISO 4217: the currency of the books (FEC) and the default currency of documents' })
  @IsString()
  accountingCurrency!: string;

  static from(s: InvoiceSettingsValues): InvoiceSettingsView {
    return { ...s };
  }
}

export class AccountingSettingsView {
  @IsString() salesJournalCode!: string;
  @IsString() bankJournalCode!: string;
  @IsString() customersAccount!: string;
  @IsString() revenueAccount!: string;
  @IsString() bankAccount!: string;
  @JSONSchema({
    description: 'VAT collected account per VAT rate in basis points',
    type: 'object',
    additionalProperties: { type: 'string' },
  })
  @IsObject()
  vatAccounts!: Record<string, string>;
  @IsString() defaultVatAccount!: string;
  @IsInt() fiscalYearStartMonth!: number;
  @IsBoolean() remindersEnabled!: boolean;
  @IsInt({ each: true }) @IsArray() reminderOffsets!: number[];
  @JSONSchema({ description: 'Issued invoices can be paid online (payment link)' })
  @IsBoolean()
  onlinePaymentEnabled!: boolean;

  static from(s: AccountingSettingsValues): AccountingSettingsView {
    return { ...s, vatAccounts: { ...s.vatAccounts }, reminderOffsets: [...s.reminderOffsets] };
  }
}
