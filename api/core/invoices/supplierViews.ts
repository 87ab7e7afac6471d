import { Type } from 'class-transformer';
import { IsDateString, IsIn, IsInt, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../../http/nullable';
import {
  supplierInvoiceChannels,
  supplierInvoiceFormats,
  emittedStatuses,
  statusMessageStates,
  supplierInvoiceStatuses,
  type EInvoiceStatusMessage,
  type SupplierInvoice,
  type SupplierInvoiceAddress,
  type SupplierInvoiceLine,
  type SupplierInvoiceNote,
  type SupplierInvoiceParty,
  type SupplierInvoicePaymentMeans,
  type SupplierInvoiceVat,
} from '../../../entities/core/supplierInvoice';
import type { supplierSummaryColumns } from '../../../domain/core/invoices/reception/store';
import type { Lean } from '../../../lib/lean';
import { mapPage, type Page } from '../../../lib/pagination';
import { isoTime } from '../../http/present';

/** Presenters of the supplier-invoice routes (reception). Amounts in cents, rates as written on the document. */

export class SupplierAddressView {
  @Nullable() @IsString() line1!: string | null;
  @Nullable() @IsString() line2!: string | null;
  @Nullable() @IsString() postalCode!: string | null;
  @Nullable() @IsString() city!: string | null;
  @Nullable() @IsString() country!: string | null;

  static from(a: SupplierInvoiceAddress): SupplierAddressView {
    return { line1: a.line1, line2: a.line2, postalCode: a.postalCode, city: a.city, country: a.country };
  }
}

export class SupplierPartyView {
  @IsString() name!: string;
  @JSONSchema({ description: 'SIREN: the legal registration (scheme 0002), a SIRET or a French VAT number' })
  @Nullable()
  @IsString()
  siren!: string | null;
  @Nullable() @IsString() legalId!: string | null;
  @Nullable() @IsString() vatNumber!: string | null;
  @JSONSchema({ description: 'Electronic address (BT-34 / BT-49) as scheme:identifier' })
  @Nullable()
  @IsString()
  electronicAddress!: string | null;
  @Nullable() @ValidateNested() @Type(() => SupplierAddressView) address!: SupplierAddressView | null;

  static from(p: SupplierInvoiceParty): SupplierPartyView {
    return {
      name: p.name,
      siren: p.siren,
      legalId: p.legalId,
      vatNumber: p.vatNumber,
      electronicAddress: p.electronicAddress,
      address: p.address ? SupplierAddressView.from(p.address) : null,
    };
  }
}

export class SupplierLineView {
  @IsString() id!: string;
  @IsString() name!: string;
  @JSONSchema({ description: 'As written (BT-129)' }) @IsString() quantity!: string;
  @IsString() unitCode!: string;
  @IsInt() netPriceCents!: number;
  @IsInt() netCents!: number;
  @IsString() vatCategory!: string;
  @Nullable() @IsString() vatRate!: string | null;

  static from(l: SupplierInvoiceLine): SupplierLineView {
    return { ...l };
  }
}

export class SupplierVatView {
  @IsString() category!: string;
  @Nullable() @IsString() rate!: string | null;
  @IsInt() taxableCents!: number;
  @IsInt() vatCents!: number;
  @Nullable() @IsString() exemptionReason!: string | null;

  static from(v: SupplierInvoiceVat): SupplierVatView {
    return { ...v };
  }
}

export class SupplierPaymentMeansView {
  @JSONSchema({ description: 'UNTDID 4461 (30 / 58: credit transfer, 48: card, 49 / 59: direct debit ...)' })
  @Nullable()
  @IsString()
  typeCode!: string | null;
  @Nullable() @IsString() iban!: string | null;
  @Nullable() @IsString() bic!: string | null;

  static from(m: SupplierInvoicePaymentMeans): SupplierPaymentMeansView {
    return { typeCode: m.typeCode, iban: m.iban, bic: m.bic };
  }
}

export class SupplierNoteView {
  @JSONSchema({ description: 'UNTDID 4451 subject (PMT, PMD, AAB ...)' }) @Nullable() @IsString() subject!:
    string | null;
  @IsString() text!: string;

  static from(n: SupplierInvoiceNote): SupplierNoteView {
    return { subject: n.subject, text: n.text };
  }
}

type SummaryRow = Pick<Lean<SupplierInvoice>, (typeof supplierSummaryColumns)[number]>;

export class SupplierInvoiceSummaryView {
  @IsUUID() id!: string;
  @JSONSchema({ description: 'received, then approved, refused (statusReason says why) or paid' })
  @IsIn(supplierInvoiceStatuses)
  status!: string;
  @Nullable() @IsString() statusReason!: string | null;
  @JSONSchema({ description: 'What was received: a Factur-X PDF, a CII XML or a UBL XML' })
  @IsIn(supplierInvoiceFormats)
  format!: string;
  @IsIn(supplierInvoiceChannels) channel!: string;
  @JSONSchema({ description: 'The CRM party (role supplier) the seller was matched to or created as' })
  @IsUUID()
  supplierId!: string;
  @JSONSchema({ description: 'The supplier’s number (BT-1)' }) @IsString() number!: string;
  @JSONSchema({ description: 'UNTDID 1001: 380 invoice, 381 credit note ...' }) @IsString() typeCode!: string;
  @IsString() issueDate!: string;
  @Nullable() @IsString() dueDate!: string | null;
  @IsString() currency!: string;
  @ValidateNested() @Type(() => SupplierPartyView) seller!: SupplierPartyView;
  @IsInt() taxExclusiveCents!: number;
  @IsInt() vatTotalCents!: number;
  @IsInt() grandTotalCents!: number;
  @JSONSchema({ description: 'Amount due (BT-115)' }) @IsInt() duePayableCents!: number;
  @JSONSchema({ description: 'When it was received' }) @IsDateString() receivedAt!: string;

  static from(i: SummaryRow): SupplierInvoiceSummaryView {
    return {
      id: i.id,
      status: i.status,
      statusReason: i.statusReason ?? null,
      format: i.format,
      channel: i.channel,
      supplierId: i.supplierId,
      number: i.number,
      typeCode: i.typeCode,
      issueDate: i.issueDate,
      dueDate: i.dueDate ?? null,
      currency: i.currency,
      seller: SupplierPartyView.from(i.seller),
      taxExclusiveCents: i.taxExclusiveCents,
      vatTotalCents: i.vatTotalCents,
      grandTotalCents: i.grandTotalCents,
      duePayableCents: i.duePayableCents,
      receivedAt: isoTime(i.createdAt),
    };
  }
}

export class SupplierInvoicePageView {
  @ValidateNested({ each: true }) @Type(() => SupplierInvoiceSummaryView) items!: SupplierInvoiceSummaryView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<SummaryRow>): SupplierInvoicePageView {
    return mapPage(page, SupplierInvoiceSummaryView.from);
  }
}

export class StatusMessageView {
  @JSONSchema({ description: 'approved, refused, paid (received invoices) or collected ("Encaissée", issued ones)' })
  @IsIn(emittedStatuses)
  status!: string;
  @JSONSchema({ description: 'Lifecycle code (CDAR): 205, 210, 211, 212' }) @IsString() code!: string;
  @Nullable() @IsString() reason!: string | null;
  @JSONSchema({
    description: 'queued (being sent), sent, failed (after every attempt), not_sent (no platform configured)',
  })
  @IsIn(statusMessageStates)
  state!: string;
  @Nullable() @IsDateString() sentAt!: string | null;
  @IsDateString() createdAt!: string;

  static from(
    m: Pick<EInvoiceStatusMessage, 'status' | 'code' | 'reason' | 'state' | 'sentAt' | 'createdAt'>,
  ): StatusMessageView {
    return {
      status: m.status,
      code: m.code,
      reason: m.reason ?? null,
      state: m.state,
      sentAt: m.sentAt ? isoTime(m.sentAt) : null,
      createdAt: isoTime(m.createdAt),
    };
  }
}

export class SupplierInvoiceView extends SupplierInvoiceSummaryView {
  @ValidateNested() @Type(() => SupplierPartyView) buyer!: SupplierPartyView;
  @Nullable() @IsString() buyerReference!: string | null;
  @Nullable() @IsString() orderReference!: string | null;
  @Nullable() @IsString() paymentTerms!: string | null;
  @ValidateNested({ each: true }) @Type(() => SupplierLineView) lines!: SupplierLineView[];
  @ValidateNested({ each: true }) @Type(() => SupplierVatView) vatBreakdown!: SupplierVatView[];
  @ValidateNested({ each: true }) @Type(() => SupplierPaymentMeansView) paymentMeans!: SupplierPaymentMeansView[];
  @ValidateNested({ each: true }) @Type(() => SupplierNoteView) notes!: SupplierNoteView[];
  @IsInt() lineTotalCents!: number;
  @JSONSchema({ description: 'SHA-256 (hex) of the original bytes, kept unchanged' })
  @IsString()
  originalSha256!: string;
  @IsInt() originalSize!: number;
  @JSONSchema({ description: 'The lifecycle statuses emitted to the platform for it, oldest first' })
  @ValidateNested({ each: true })
  @Type(() => StatusMessageView)
  statusMessages!: StatusMessageView[];

  static fromEntity(
    i: Omit<SupplierInvoice, 'original'>,
    messages: Parameters<typeof StatusMessageView.from>[0][] = [],
  ): SupplierInvoiceView {
    return {
      ...SupplierInvoiceSummaryView.from(i),
      buyer: SupplierPartyView.from(i.buyer),
      buyerReference: i.buyerReference ?? null,
      orderReference: i.orderReference ?? null,
      paymentTerms: i.paymentTerms ?? null,
      lines: i.lines.map(SupplierLineView.from),
      vatBreakdown: i.vatBreakdown.map(SupplierVatView.from),
      paymentMeans: i.paymentMeans.map(SupplierPaymentMeansView.from),
      notes: i.notes.map(SupplierNoteView.from),
      lineTotalCents: i.lineTotalCents,
      originalSha256: i.originalSha256,
      originalSize: i.originalSize,
      statusMessages: messages.map(StatusMessageView.from),
    };
  }
}
