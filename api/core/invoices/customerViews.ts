import { Type } from 'class-transformer';
import { IsBoolean, IsDateString, IsIn, IsInt, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../../http/nullable';
import { isoTime } from '../../http/present';
import type { InvoiceReminder } from '../../../entities/core/receivables';
import type { InvoiceReminders } from '../../../domain/core/invoices/reminders/listReminders';
import type { Lean } from '../../../lib/lean';
import { mapPage, type Page } from '../../../lib/pagination';
import {
  invoiceKinds,
  type Invoice,
  type InvoiceLine,
  type InvoiceParty,
  type VatBreakdown,
} from '../../../entities/core/invoice';
import { outstandingOf } from '../../../domain/core/invoices/settlement';
import type { PaymentLink } from '../../../domain/core/invoices/payLinks/openPaymentLink';
import { InvoiceLineView, InvoicePartyView, VatBreakdownView } from './views';

/** What a customer's signed link shows of any document: as issued or sent, no organisation id, no internal ids. */
export class PublicDocumentView {
  @IsString() number!: string;
  @IsString() issueDate!: string;
  @IsString() currency!: string;
  @ValidateNested() @Type(() => InvoicePartyView) seller!: InvoicePartyView;
  @ValidateNested() @Type(() => InvoicePartyView) buyer!: InvoicePartyView;
  @ValidateNested({ each: true }) @Type(() => InvoiceLineView) lines!: InvoiceLineView[];
  @ValidateNested({ each: true }) @Type(() => VatBreakdownView) vatBreakdown!: VatBreakdownView[];
  @IsInt() taxExclusiveCents!: number;
  @IsInt() vatTotalCents!: number;
  @IsInt() grandTotalCents!: number;
  @Nullable() @IsString() paymentTerms!: string | null;
  @Nullable() @IsString() note!: string | null;

  static fieldsOf(d: {
    number?: string | null;
    issueDate?: string | null;
    currency: string;
    seller?: InvoiceParty | null;
    buyer?: InvoiceParty | null;
    lines: InvoiceLine[];
    vatBreakdown: VatBreakdown[];
    taxExclusiveCents: number;
    vatTotalCents: number;
    grandTotalCents: number;
    paymentTerms?: string | null;
    note?: string | null;
  }): PublicDocumentView {
    return {
      number: d.number!,
      issueDate: d.issueDate!,
      currency: d.currency,
      seller: { ...InvoicePartyView.from(d.seller)! },
      buyer: { ...InvoicePartyView.from(d.buyer)! },
      lines: d.lines.map(InvoiceLineView.from),
      vatBreakdown: d.vatBreakdown.map(VatBreakdownView.from),
      taxExclusiveCents: d.taxExclusiveCents,
      vatTotalCents: d.vatTotalCents,
      grandTotalCents: d.grandTotalCents,
      paymentTerms: d.paymentTerms ?? null,
      note: d.note ?? null,
    };
  }
}

/** What the invoice's customer link shows: the document as issued, its status and what is left to pay. */
export class PublicInvoiceView extends PublicDocumentView {
  @IsIn(invoiceKinds) kind!: string;
  @JSONSchema({ description: 'issued, partially_paid, paid, partially_credited, credited' })
  @IsString()
  status!: string;
  @Nullable() @IsString() dueDate!: string | null;
  @IsInt() paidCents!: number;
  @JSONSchema({ description: 'What is left to pay, in cents' }) @IsInt() outstandingCents!: number;
  @JSONSchema({ description: 'The PDF (Factur-X) of the same link' }) @IsString() pdfUrl!: string;
  @JSONSchema({
    description:
      'The payment link (opens the hosted payment page) while something is outstanding and the seller takes payments online; else null',
  })
  @Nullable()
  @IsString()
  payUrl!: string | null;

  static from(i: Invoice, pdfUrl: string, payUrl: string | null = null): PublicInvoiceView {
    return {
      ...PublicDocumentView.fieldsOf(i),
      kind: i.kind,
      status: i.status,
      dueDate: i.dueDate ?? null,
      paidCents: i.paidCents,
      outstandingCents: i.kind === 'invoice' ? outstandingOf(i) : 0,
      pdfUrl,
      payUrl,
    };
  }
}

/** What POST /api/invoices/{id}/send did: the address mailed and the link it carries. */
export class InvoiceSentView {
  @IsUUID() invoiceId!: string;
  @IsString() to!: string;
  @JSONSchema({ description: "The customer's signed link (read, PDF), as mailed" }) @IsString() customerLink!: string;
}

export class ReminderView {
  @IsUUID() id!: string;
  @IsUUID() invoiceId!: string;
  @IsUUID() customerId!: string;
  @JSONSchema({ description: 'The step of the plan: days relative to the due date (negative: before)' })
  @IsInt()
  offsetDays!: number;
  @IsString() dueDate!: string;
  @JSONSchema({ description: 'What was left to pay when mailed, in cents' }) @IsInt() outstandingCents!: number;
  @IsString() mailTo!: string;
  @Nullable() @IsUUID() mailId!: string | null;
  @IsDateString() sentAt!: string;

  static from(r: Lean<InvoiceReminder>): ReminderView {
    return {
      id: r.id,
      invoiceId: r.invoiceId,
      customerId: r.customerId,
      offsetDays: r.offsetDays,
      dueDate: r.dueDate,
      outstandingCents: r.outstandingCents,
      mailTo: r.mailTo,
      mailId: r.mailId ?? null,
      sentAt: isoTime(r.createdAt),
    };
  }
}

export class PlannedReminderView {
  @IsInt() offsetDays!: number;
  @JSONSchema({ description: 'The day the step comes (due date + offsetDays)' }) @IsString() on!: string;
}

export class InvoiceRemindersView {
  @IsUUID() invoiceId!: string;
  @JSONSchema({ description: "The organisation's remindersEnabled setting" }) @IsBoolean() enabled!: boolean;
  @JSONSchema({ description: 'Mailed, oldest first' })
  @ValidateNested({ each: true })
  @Type(() => ReminderView)
  sent!: ReminderView[];
  @JSONSchema({ description: 'Steps still to come while the invoice is open and reminders are on' })
  @ValidateNested({ each: true })
  @Type(() => PlannedReminderView)
  planned!: PlannedReminderView[];

  static from(r: InvoiceReminders): InvoiceRemindersView {
    return { invoiceId: r.invoiceId, enabled: r.enabled, sent: r.sent.map(ReminderView.from), planned: r.planned };
  }
}

export class ReminderPageView {
  @ValidateNested({ each: true }) @Type(() => ReminderView) items!: ReminderView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<Lean<InvoiceReminder>>): ReminderPageView {
    return mapPage(page, ReminderView.from);
  }
}

/** A hosted payment page opened for an invoice (POST /api/invoices/{id}/payment-link, the customer link's pay). */
export class PaymentLinkView {
  @JSONSchema({ description: 'The hosted payment page (Stripe Checkout) to send the customer to' })
  @IsString()
  url!: string;
  @JSONSchema({ description: 'What the page collects: the amount outstanding when it was opened, in cents' })
  @IsInt()
  amountCents!: number;
  @IsString() currency!: string;
  @JSONSchema({ description: 'The page can be paid until then; a later request opens another' })
  @IsDateString()
  expiresAt!: string;

  static from(l: PaymentLink): PaymentLinkView {
    return { url: l.url, amountCents: l.amountCents, currency: l.currency, expiresAt: isoTime(l.expiresAt) };
  }
}
