import { Type } from 'class-transformer';
import { IsBoolean, IsDateString, IsIn, IsInt, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import {
  ereportKinds,
  ereportStates,
  transactionCategoryCodes,
  vatRegimes,
  type EReport,
  type PaymentLine,
  type TransactionLine,
} from '../../../entities/core/ereport';
import { operationCategories } from '../../../entities/core/invoice';
import type { EReportingSettingsValues } from '../../../domain/core/invoices/ereporting/ereportingSettings';
import type { reportSummaryColumns } from '../../../domain/core/invoices/ereporting/store';
import type { Lean } from '../../../lib/lean';
import { mapPage, type Page } from '../../../lib/pagination';
import { Nullable } from '../../http/nullable';
import { iso, isoTime } from '../../http/present';

/** Presenters of the e-reporting routes. Amounts in cents, VAT rates in basis points (2000 = 20 %). */

export class EReportingSettingsView {
  @IsIn(vatRegimes) vatRegime!: string;
  @JSONSchema({ description: 'false while the default (real_monthly) applies' }) @IsBoolean() chosen!: boolean;

  static from(s: EReportingSettingsValues): EReportingSettingsView {
    return { vatRegime: s.vatRegime, chosen: s.chosen };
  }
}

export class EReportLineView {
  @JSONSchema({ description: 'The day (issue date of the documents, or day of the payments)' })
  @IsString()
  date!: string;
  @IsInt() vatRateBp!: number;
  @IsInt() taxableCents!: number;
  @IsInt() vatCents!: number;
  @JSONSchema({ description: 'Transactions: b2c or international' })
  @Nullable()
  @IsIn(['b2c', 'international'])
  scope!: string | null;
  @JSONSchema({ description: 'Transactions: what the documents sell' })
  @Nullable()
  @IsIn(operationCategories)
  category!: string | null;
  @JSONSchema({ description: 'Transactions: the category of the DGFiP specification (TT-81)' })
  @Nullable()
  @IsIn(transactionCategoryCodes)
  categoryCode!: string | null;
  @Nullable() @IsInt() invoiceCount!: number | null;
  @Nullable() @IsInt() creditNoteCount!: number | null;
  @JSONSchema({ description: 'Payments: the amount collected, VAT included' }) @Nullable() @IsInt() amountCents!:
    number | null;
  @Nullable() @IsInt() paymentCount!: number | null;

  static from(l: TransactionLine | PaymentLine): EReportLineView {
    const t = 'scope' in l ? l : null;
    const p = 'paymentCount' in l ? l : null;
    return {
      date: l.date,
      vatRateBp: l.vatRateBp,
      taxableCents: l.taxableCents,
      vatCents: l.vatCents,
      scope: t?.scope ?? null,
      category: t?.category ?? null,
      categoryCode: t?.categoryCode ?? null,
      invoiceCount: t?.invoiceCount ?? null,
      creditNoteCount: t?.creditNoteCount ?? null,
      amountCents: p?.amountCents ?? null,
      paymentCount: p?.paymentCount ?? null,
    };
  }
}

type SummaryRow = Pick<Lean<EReport>, (typeof reportSummaryColumns)[number]>;

export class EReportSummaryView {
  @IsUUID() id!: string;
  @IsIn(ereportKinds) kind!: string;
  @IsString() periodStart!: string;
  @IsString() periodEnd!: string;
  @IsIn(vatRegimes) vatRegime!: string;
  @JSONSchema({ description: '0: the period’s report; 1, 2 ...: its rectifying reports' }) @IsInt() sequence!: number;
  @IsString() currency!: string;
  @JSONSchema({ description: 'Documents (transactions) or payments (payments) counted in the lines' })
  @IsInt()
  itemCount!: number;
  @IsInt() taxableCents!: number;
  @IsInt() vatCents!: number;
  @JSONSchema({
    description: 'queued (being sent), sent, failed (after every attempt or refused), not_sent (no platform)',
  })
  @IsIn(ereportStates)
  state!: string;
  @IsInt() attempts!: number;
  @Nullable() @IsString() lastError!: string | null;
  @Nullable() @IsDateString() sentAt!: string | null;
  @Nullable() @IsString() platformReportId!: string | null;
  @IsDateString() createdAt!: string;

  static from(r: SummaryRow): EReportSummaryView {
    return {
      id: r.id,
      kind: r.kind,
      periodStart: r.periodStart,
      periodEnd: r.periodEnd,
      vatRegime: r.vatRegime,
      sequence: r.sequence,
      currency: r.currency,
      itemCount: r.itemCount,
      taxableCents: Number(r.taxableCents),
      vatCents: Number(r.vatCents),
      state: r.state,
      attempts: r.attempts,
      lastError: r.lastError ?? null,
      sentAt: iso(r.sentAt),
      platformReportId: r.platformReportId ?? null,
      createdAt: isoTime(r.createdAt),
    };
  }
}

export class EReportView extends EReportSummaryView {
  @ValidateNested({ each: true }) @Type(() => EReportLineView) lines!: EReportLineView[];

  static fromEntity(r: EReport): EReportView {
    return {
      ...EReportSummaryView.from(r),
      lines: (r.lines as (TransactionLine | PaymentLine)[]).map(EReportLineView.from),
    };
  }
}

export class EReportPageView {
  @ValidateNested({ each: true }) @Type(() => EReportSummaryView) items!: EReportSummaryView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<SummaryRow>): EReportPageView {
    return mapPage(page, EReportSummaryView.from);
  }
}
