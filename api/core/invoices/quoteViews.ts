import { Type } from 'class-transformer';
import { IsDateString, IsIn, IsInt, IsNumber, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../../http/nullable';
import { iso, isoTime } from '../../http/present';
import { quoteInvoiceKinds, quoteViewStatuses, type Quote, type QuoteInvoice } from '../../../entities/core/quote';
import type { QuoteDetail } from '../../../domain/core/invoices/quotes/getQuote';
import { invoiceToday } from '../../../domain/core/invoices/lookup';
import { viewStatus } from '../../../domain/core/invoices/quotes/rules';
import type { Lean } from '../../../lib/lean';
import { mapPage, type Page } from '../../../lib/pagination';
import { PublicDocumentView } from './customerViews';
import { BuyerDetailsView, InvoiceLineView, InvoicePartyView, PartyAddressView, VatBreakdownView } from './views';

/** Presenters of the quote routes. Amounts in cents (EUR). */

const STATUS = 'draft, sent, accepted, declined; expired: sent and past validUntil (can no longer be accepted)';

export class QuoteSummaryView {
  @IsUUID() id!: string;
  @JSONSchema({ description: STATUS }) @IsIn(quoteViewStatuses) status!: string;
  @JSONSchema({ description: 'Null while draft; e.g. D-2026-00001' }) @Nullable() @IsString() number!: string | null;
  @IsUUID() customerId!: string;
  @Nullable() @IsUUID() dealId!: string | null;
  @Nullable() @IsString() issueDate!: string | null;
  @IsString() validUntil!: string;
  @IsString() currency!: string;
  @IsInt() taxExclusiveCents!: number;
  @IsInt() vatTotalCents!: number;
  @IsInt() grandTotalCents!: number;
  @Nullable() @IsDateString() sentAt!: string | null;
  @Nullable() @IsDateString() respondedAt!: string | null;
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(q: Lean<Quote> | Quote, today = invoiceToday()): QuoteSummaryView {
    return {
      id: q.id,
      status: viewStatus(q, today),
      number: q.number ?? null,
      customerId: q.customerId,
      dealId: q.dealId ?? null,
      issueDate: q.issueDate ?? null,
      validUntil: q.validUntil,
      currency: q.currency,
      taxExclusiveCents: q.taxExclusiveCents,
      vatTotalCents: q.vatTotalCents,
      grandTotalCents: q.grandTotalCents,
      sentAt: iso(q.sentAt),
      respondedAt: iso(q.respondedAt),
      createdAt: isoTime(q.createdAt),
      updatedAt: isoTime(q.updatedAt),
    };
  }
}

export class QuotePageView {
  @ValidateNested({ each: true }) @Type(() => QuoteSummaryView) items!: QuoteSummaryView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<Lean<Quote>>): QuotePageView {
    const today = invoiceToday();
    return mapPage(page, (q) => QuoteSummaryView.from(q, today));
  }
}

export class QuoteResponseView {
  @IsIn(['accepted', 'declined']) answer!: string;
  @JSONSchema({ description: 'The name typed' }) @IsString() name!: string;
  @IsDateString() at!: string;
  @Nullable() @IsString() ip!: string | null;
  @Nullable() @IsString() userAgent!: string | null;
  @Nullable() @IsString() reason!: string | null;

  static from(q: Quote): QuoteResponseView | null {
    return q.respondedAt && q.responderName && (q.status === 'accepted' || q.status === 'declined')
      ? {
          answer: q.status,
          name: q.responderName,
          at: isoTime(q.respondedAt),
          ip: q.responderIp ?? null,
          userAgent: q.responderUserAgent ?? null,
          reason: q.declineReason ?? null,
        }
      : null;
  }
}

export class QuoteInvoiceLinkView {
  @IsIn(quoteInvoiceKinds) kind!: string;
  @IsUUID() invoiceId!: string;
  @JSONSchema({ description: 'Deposit: percent of the quote' }) @Nullable() @IsNumber() depositPercent!: number | null;
  @IsDateString() createdAt!: string;

  static from(m: QuoteInvoice): QuoteInvoiceLinkView {
    return {
      kind: m.kind,
      invoiceId: m.invoiceId,
      depositPercent: m.depositPercentBp === null || m.depositPercentBp === undefined ? null : m.depositPercentBp / 100,
      createdAt: isoTime(m.createdAt),
    };
  }
}

export class QuoteView extends QuoteSummaryView {
  @ValidateNested({ each: true }) @Type(() => InvoiceLineView) lines!: InvoiceLineView[];
  @ValidateNested({ each: true }) @Type(() => VatBreakdownView) vatBreakdown!: VatBreakdownView[];
  @IsInt() lineTotalCents!: number;
  @Nullable() @IsString() paymentTerms!: string | null;
  @Nullable() @IsString() note!: string | null;
  @ValidateNested() @Type(() => BuyerDetailsView) buyerDetails!: BuyerDetailsView;
  @JSONSchema({ description: 'Copied when sent' })
  @Nullable()
  @ValidateNested()
  @Type(() => InvoicePartyView)
  seller!: InvoicePartyView | null;
  @Nullable() @ValidateNested() @Type(() => InvoicePartyView) buyer!: InvoicePartyView | null;
  @JSONSchema({ description: "The customer's answer: who (name typed), when, from where" })
  @Nullable()
  @ValidateNested()
  @Type(() => QuoteResponseView)
  response!: QuoteResponseView | null;
  @ValidateNested({ each: true }) @Type(() => QuoteInvoiceLinkView) invoices!: QuoteInvoiceLinkView[];
  @JSONSchema({ description: "The customer's signed link (read, PDF, accept, decline) once sent" })
  @Nullable()
  @IsString()
  customerLink!: string | null;

  static fromDetail({ quote: q, invoices, customerLink }: QuoteDetail): QuoteView {
    return {
      ...QuoteSummaryView.from(q),
      lines: q.lines.map(InvoiceLineView.from),
      vatBreakdown: q.vatBreakdown.map(VatBreakdownView.from),
      lineTotalCents: q.lineTotalCents,
      paymentTerms: q.paymentTerms ?? null,
      note: q.note ?? null,
      buyerDetails: {
        vatNumber: q.buyerOverrides.vatNumber,
        legalId: q.buyerOverrides.legalId,
        address: PartyAddressView.from(q.buyerOverrides.address),
      },
      seller: InvoicePartyView.from(q.seller),
      buyer: InvoicePartyView.from(q.buyer),
      response: QuoteResponseView.from(q),
      invoices: invoices.map(QuoteInvoiceLinkView.from),
      customerLink,
    };
  }
}

/** What the customer's link shows: the quote as sent, its status and answer, no organisation id, no internal ids. */
export class PublicQuoteView extends PublicDocumentView {
  @JSONSchema({ description: STATUS }) @IsIn(quoteViewStatuses) status!: string;
  @IsString() validUntil!: string;
  @JSONSchema({ description: 'The answer given, without the IP address and user agent' })
  @Nullable()
  @IsIn(['accepted', 'declined'])
  answeredAs!: string | null;
  @Nullable() @IsString() answeredBy!: string | null;
  @Nullable() @IsDateString() answeredAt!: string | null;

  static from(q: Quote): PublicQuoteView {
    return {
      ...PublicDocumentView.fieldsOf(q),
      status: viewStatus(q, invoiceToday()),
      validUntil: q.validUntil,
      answeredAs: q.status === 'accepted' || q.status === 'declined' ? q.status : null,
      answeredBy: q.responderName ?? null,
      answeredAt: iso(q.respondedAt),
    };
  }
}
