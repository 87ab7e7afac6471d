import { Type } from 'class-transformer';
import { IsBoolean, IsDateString, IsIn, IsInt, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../../http/nullable';
import { isoTime } from '../../http/present';
import {
  recurringIntervals,
  recurringStatuses,
  type RecurringInvoice,
  type RecurringInvoiceRun,
} from '../../../entities/core/recurringInvoice';
import type { RecurringInvoiceDetail } from '../../../domain/core/invoices/recurring/getRecurringInvoice';
import type { Lean } from '../../../lib/lean';
import { mapPage, type Page } from '../../../lib/pagination';
import { BuyerDetailsView, InvoiceLineView, PartyAddressView, VatBreakdownView } from './views';

/** Presenters of the recurring invoice routes. Amounts in cents (EUR). */

export class RecurringInvoiceSummaryView {
  @IsUUID() id!: string;
  @JSONSchema({ description: 'active, paused, ended (past endOn or maxCount)' })
  @IsIn(recurringStatuses)
  status!: string;
  @IsUUID() customerId!: string;
  @IsIn(recurringIntervals) interval!: string;
  @IsInt() dayOfPeriod!: number;
  @IsString() startOn!: string;
  @Nullable() @IsString() endOn!: string | null;
  @Nullable() @IsInt() maxCount!: number | null;
  @JSONSchema({ description: 'The day the next period is invoiced; null once ended' })
  @Nullable()
  @IsString()
  nextRunOn!: string | null;
  @IsBoolean() autoIssue!: boolean;
  @IsBoolean() autoSend!: boolean;
  @Nullable() @IsInt() dueDays!: number | null;
  @IsString() currency!: string;
  @IsInt() taxExclusiveCents!: number;
  @IsInt() vatTotalCents!: number;
  @IsInt() grandTotalCents!: number;
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(s: Lean<RecurringInvoice> | RecurringInvoice): RecurringInvoiceSummaryView {
    return {
      id: s.id,
      status: s.status,
      customerId: s.customerId,
      interval: s.interval,
      dayOfPeriod: s.dayOfPeriod,
      startOn: s.startOn,
      endOn: s.endOn ?? null,
      maxCount: s.maxCount ?? null,
      nextRunOn: s.nextRunOn ?? null,
      autoIssue: s.autoIssue,
      autoSend: s.autoSend,
      dueDays: s.dueDays ?? null,
      currency: s.currency,
      taxExclusiveCents: s.taxExclusiveCents,
      vatTotalCents: s.vatTotalCents,
      grandTotalCents: s.grandTotalCents,
      createdAt: isoTime(s.createdAt),
      updatedAt: isoTime(s.updatedAt),
    };
  }
}

export class RecurringInvoicePageView {
  @ValidateNested({ each: true }) @Type(() => RecurringInvoiceSummaryView) items!: RecurringInvoiceSummaryView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<Lean<RecurringInvoice>>): RecurringInvoicePageView {
    return mapPage(page, RecurringInvoiceSummaryView.from);
  }
}

export class RecurringRunView {
  @JSONSchema({ description: 'The period number (0 is the month, quarter or year of startOn)' })
  @IsInt()
  period!: number;
  @IsString() periodStart!: string;
  @IsString() periodEnd!: string;
  @IsUUID() invoiceId!: string;
  @IsDateString() createdAt!: string;

  static from(r: RecurringInvoiceRun): RecurringRunView {
    return {
      period: r.periodIndex,
      periodStart: r.periodStart,
      periodEnd: r.periodEnd,
      invoiceId: r.invoiceId,
      createdAt: isoTime(r.createdAt),
    };
  }
}

export class RecurringInvoiceView extends RecurringInvoiceSummaryView {
  @ValidateNested({ each: true }) @Type(() => InvoiceLineView) lines!: InvoiceLineView[];
  @ValidateNested({ each: true }) @Type(() => VatBreakdownView) vatBreakdown!: VatBreakdownView[];
  @IsInt() lineTotalCents!: number;
  @Nullable() @IsString() paymentTerms!: string | null;
  @Nullable() @IsString() note!: string | null;
  @ValidateNested() @Type(() => BuyerDetailsView) buyerDetails!: BuyerDetailsView;
  @JSONSchema({ description: 'The invoices made, latest period first (the last 50)' })
  @ValidateNested({ each: true })
  @Type(() => RecurringRunView)
  runs!: RecurringRunView[];

  static fromDetail({ schedule: s, runs }: RecurringInvoiceDetail): RecurringInvoiceView {
    return {
      ...RecurringInvoiceSummaryView.from(s),
      lines: s.lines.map(InvoiceLineView.from),
      vatBreakdown: s.vatBreakdown.map(VatBreakdownView.from),
      lineTotalCents: s.lineTotalCents,
      paymentTerms: s.paymentTerms ?? null,
      note: s.note ?? null,
      buyerDetails: {
        vatNumber: s.buyerOverrides.vatNumber,
        legalId: s.buyerOverrides.legalId,
        address: PartyAddressView.from(s.buyerOverrides.address),
      },
      runs: runs.map(RecurringRunView.from),
    };
  }
}
