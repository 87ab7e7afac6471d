import { inAccountingCurrency } from '../currencies';
import { newId } from '../../../../entities/base';
import { Business } from '../../../../entities/core/business';
import {
  EReport,
  type EReportKind,
  type PaymentLine,
  type TransactionLine,
  type VatRegime,
} from '../../../../entities/core/ereport';
import type { StagedJob } from '../../../../entities/jobs/stagedJob';
import { addDays, isCalendarDate } from '../../../../lib/calendar';
import type { Em } from '../../../../lib/db';
import { einvoiceQueue } from '../../../../queues/einvoice';
import { tenantContext } from '../../../context';
import { enqueueStaged, stageJob } from '../../../jobs/stageJob';
import type { Services } from '../../../services';
import { invoiceToday } from '../lookup';
import { readInvoiceSettings } from '../settings';
import { aggregatePayments, aggregateTransactions } from './aggregate';
import { closedPeriodsFrom, periodOf, type ReportingPeriod } from './periods';
import {
  coverItems,
  lastSequence,
  lockTenantReports,
  periodReports,
  regimeRow,
  tenantsWithDocuments,
  unreportedDocuments,
  unreportedPayments,
  type UnreportedDocument,
  type UnreportedPayment,
} from './store';

/** The regime of an organisation that has not chosen one: réel normal mensuel, the most frequent reporting. */
export const DEFAULT_VAT_REGIME: VatRegime = 'real_monthly';

/** The job sending a report, for its round of sending (0 the first, then one per re-send). */
export const ereportJobId = (reportId: string, round: number) =>
  round ? `einvoice.ereport.${reportId}.${round}` : `einvoice.ereport.${reportId}`;

/** The first day e-reported (EREPORTING_START, the reform's 1 September 2026 by default). */
const reportingStart = (services: Services) =>
  isCalendarDate(services.config.EREPORTING_START) ? services.config.EREPORTING_START : '2026-09-01';

/** The lines of a report: transaction data or payment data. */
type Lines = TransactionLine[] | PaymentLine[];

/** How the documents or payments awaiting a report of a kind are read (oldest first), and aggregated. */
interface Aggregation<T extends { id: string; date: string }> {
  read(tx: Em, tenantId: string, from: string): Promise<T[]>;
  lines(items: T[]): Lines;
}

/** A document's VAT breakdown in its accounting currency (each amount converted at its recorded rate). */
const breakdownInAccounting = (d: UnreportedDocument | UnreportedPayment) =>
  d.vatBreakdown.map((v) => ({
    ...v,
    taxableCents: inAccountingCurrency(v.taxableCents, d),
    vatCents: inAccountingCurrency(v.vatCents, d),
  }));

const transactions: Aggregation<UnreportedDocument & { issueDate: string }> = {
  read: async (tx, tenantId, from) =>
    (await unreportedDocuments(tx, tenantId, from)).map((d) => ({
      ...d,
      issueDate: d.date,
      vatBreakdown: breakdownInAccounting(d),
    })),
  lines: aggregateTransactions,
};

const payments: Aggregation<UnreportedPayment & { paidOn: string }> = {
  read: async (tx, tenantId, from) =>
    (await unreportedPayments(tx, tenantId, from)).map((p) => ({
      ...p,
      paidOn: p.date,
      amountCents: inAccountingCurrency(p.amountCents, p),
      vatBreakdown: breakdownInAccounting(p),
    })),
  lines: aggregatePayments,
};

const totals = (lines: readonly (TransactionLine | PaymentLine)[]) => ({
  taxableCents: lines.reduce((a, l) => a + l.taxableCents, 0),
  vatCents: lines.reduce((a, l) => a + l.vatCents, 0),
  itemCount: lines.reduce((a, l) => a + ('paymentCount' in l ? l.paymentCount : l.invoiceCount + l.creditNoteCount), 0),
});

interface Pass {
  tx: Em;
  tenantId: string;
  regime: VatRegime;
  /** The organisation's accounting currency: the reports' amounts are in it (documents converted at their rate). */
  currency: string;
  seller: { siren: string | null; vatNumber: string | null; name: string };
  staged: StagedJob[];
  built: number;
}

/** Writes one report with what it covers, and stages its sending. */
async function writeReport(
  pass: Pass,
  kind: EReportKind,
  period: ReportingPeriod,
  sequence: number,
  items: readonly { id: string }[],
  lines: Lines,
): Promise<void> {
  const id = newId();
  const { tx, tenantId } = pass;
  tx.create(EReport, {
    id,
    tenantId,
    kind,
    periodStart: period.start,
    periodEnd: period.end,
    vatRegime: pass.regime,
    sequence,
    sellerSiren: pass.seller.siren,
    sellerVatNumber: pass.seller.vatNumber,
    sellerName: pass.seller.name,
    currency: pass.currency,
    lines,
    ...totals(lines),
    state: 'queued',
    attempts: 0,
    round: 0,
    lastError: null,
    sentAt: null,
    platformReportId: null,
  });
  await tx.flush();
  await coverItems(
    tx,
    tenantId,
    kind,
    id,
    items.map((i) => i.id),
  );
  pass.staged.push(stageJob(tx, einvoiceQueue, { kind: 'ereport', tenantId, reportId: id }, ereportJobId(id, 0)));
  pass.built += 1;
}

/**
 * The reports of one kind of one organisation: each closed period after the last one reported (or from the
 * period of the first thing to report) gets its report, sequence 0, even when nothing in it is e-reported (the
 * period is declared, and covered: what comes later for it is a correction). Then what is dated in a period
 * reported already (a payment recorded after its period closed, a document committed as its period was being
 * reported) makes a rectifying report of that period (the next sequence) holding only it; dated before the
 * organisation's first reported period, it rectifies that first period. Late items with nothing to e-report
 * (domestic B2B documents, goods payments) are recorded covered by the period's last report, no report is made.
 */
async function reportKind<T extends { id: string; date: string }>(
  pass: Pass,
  kind: EReportKind,
  agg: Aggregation<T>,
  from: string,
  today: string,
): Promise<void> {
  const { tx, tenantId, regime } = pass;
  const items = await agg.read(tx, tenantId, from);
  const reported = await periodReports(tx, kind);
  const last = reported.at(-1);
  const next = last ? addDays(last.periodEnd, 1) : items[0] ? periodOf(regime, items[0].date).start : null;
  if (!next) return;
  for (const period of closedPeriodsFrom(regime, next, today)) {
    const inPeriod = items.filter((i) => i.date >= period.start && i.date <= period.end);
    await writeReport(pass, kind, period, 0, inPeriod, agg.lines(inPeriod));
  }
  if (!reported.length) return;
  const late = new Map<string, { period: ReportingPeriod; items: T[] }>();
  for (const item of items.filter((i) => i.date < next)) {
    const target = reported.findLast((r) => r.periodStart <= item.date) ?? reported[0];
    const group = late.get(target.periodStart) ?? {
      period: { start: target.periodStart, end: target.periodEnd },
      items: [],
    };
    group.items.push(item);
    late.set(target.periodStart, group);
  }
  for (const { period, items: group } of late.values()) {
    const lines = agg.lines(group);
    const sequence = (await lastSequence(tx, kind, period.start)) + 1;
    if (lines.length) await writeReport(pass, kind, period, sequence, group, lines);
    else {
      const latest = await tx.findOneOrFail(EReport, { kind, periodStart: period.start, sequence: sequence - 1 });
      await coverItems(
        tx,
        tenantId,
        kind,
        latest.id,
        group.map((i) => i.id),
      );
    }
  }
}

/** One organisation's pass, in one transaction under its lock (two passes at once build nothing twice). */
async function reportTenant(services: Services, tenantId: string, from: string, today: string): Promise<number> {
  const ctx = tenantContext(services, tenantId);
  const pass = await ctx.em.transactional(async (tx) => {
    await lockTenantReports(tx, tenantId);
    const business = await tx.findOne(Business, { tenantId });
    const pass: Pass = {
      tx,
      tenantId,
      regime: (await regimeRow(tx))?.vatRegime ?? DEFAULT_VAT_REGIME,
      currency: (await readInvoiceSettings(tx, tenantId)).accountingCurrency,
      seller: {
        siren: business?.siren ?? null,
        vatNumber: business?.vatNumber ?? null,
        name: business?.legalName ?? '',
      },
      staged: [],
      built: 0,
    };
    await reportKind(pass, 'transactions', transactions, from, today);
    await reportKind(pass, 'payments', payments, from, today);
    await tx.flush();
    return pass;
  });
  await enqueueStaged(services, pass.staged);
  return pass.built;
}

export interface EReportingPassResult {
  built: number;
  /** Organisations whose pass failed (logged; the job is retried, which builds nothing twice). */
  failed: number;
}

/**
 * The clock's pass (hourly): every organisation with issued documents gets the reports of the periods closed by
 * `now` (Europe/Paris days) that it has not had yet, so a pass after an outage catches up every missed period and
 * a second pass builds nothing (`onlyTenant`: that organisation's pass alone). One organisation failing does not hold the others; the pass then fails, to be
 * retried.
 */
export async function runEReporting(
  services: Services,
  now = new Date(),
  onlyTenant?: string,
): Promise<EReportingPassResult> {
  const from = reportingStart(services);
  const today = invoiceToday(now);
  const result: EReportingPassResult = { built: 0, failed: 0 };
  const tenants = onlyTenant
    ? [onlyTenant]
    : (await tenantsWithDocuments(services.orm.em.fork(), from)).map((t) => t.tenant_id);
  for (const tenantId of tenants) {
    try {
      result.built += await reportTenant(services, tenantId, from, today);
    } catch (err) {
      result.failed += 1;
      services.logger.warn({ err, tenantId }, 'e-reports of an organisation not built');
    }
  }
  if (result.failed) throw new Error(`e-reports of ${result.failed} organisations not built`);
  return result;
}
