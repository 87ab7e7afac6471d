import { LockMode } from '@mikro-orm/core';
import { EReport, EReportingSettings, type EReportKind, type VatRegime } from '../../../../entities/core/ereport';
import type { InvoiceKind, InvoiceParty, OperationCategory, VatBreakdown } from '../../../../entities/core/invoice';
import type { Em } from '../../../../lib/db';
import { notFound } from '../../../../lib/errors';
import { lean } from '../../../../lib/lean';

/** The statements of e-reporting. No rule here: the use cases decide. */

/** The organisation's regime, or null until it saves one. */
export const regimeRow = (em: Em) => em.findOne(EReportingSettings, {});

export const saveRegime = (em: Em, tenantId: string, vatRegime: VatRegime) =>
  em.upsert(EReportingSettings, { tenantId, vatRegime, updatedAt: new Date() });

/** Organisations with an issued document dated on or after `from` (every tenant: the clock's pass). */
export const tenantsWithDocuments = (em: Em, from: string) =>
  em.execute<{ tenant_id: string }[]>(
    `select distinct tenant_id from inv_invoices where status <> 'draft' and issue_date >= ?::date order by tenant_id`,
    [from],
  );

/** Serialises the passes over one organisation's reports until the transaction ends. */
export const lockTenantReports = (tx: Em, tenantId: string) =>
  tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`inv_ereports:${tenantId}`]);

export interface UnreportedDocument {
  id: string;
  kind: InvoiceKind;
  date: string;
  operationCategory: OperationCategory;
  currency: string;
  accountingCurrency: string | null;
  exchangeRate: string | null;
  seller: InvoiceParty;
  buyer: InvoiceParty;
  vatBreakdown: VatBreakdown[];
}

/** Issued documents dated from `from` that no transactions report covers yet, oldest first. */
export const unreportedDocuments = (tx: Em, tenantId: string, from: string) =>
  tx.execute<UnreportedDocument[]>(
    `select i.id, i.kind, to_char(i.issue_date, 'YYYY-MM-DD') as date, i.operation_category as "operationCategory",
       i.currency, i.accounting_currency as "accountingCurrency", i.exchange_rate as "exchangeRate", i.seller, i.buyer,
       i.vat_breakdown as "vatBreakdown"
     from inv_invoices i
     where i.tenant_id = ? and i.status <> 'draft' and i.issue_date >= ?::date
       and not exists (select 1 from inv_ereport_items e
         where e.tenant_id = i.tenant_id and e.kind = 'transactions' and e.source_id = i.id)
     order by i.issue_date, i.id`,
    [tenantId, from],
  );

export interface UnreportedPayment {
  id: string;
  date: string;
  amountCents: number;
  operationCategory: OperationCategory;
  currency: string;
  accountingCurrency: string | null;
  exchangeRate: string | null;
  seller: InvoiceParty;
  vatBreakdown: VatBreakdown[];
}

/** Payments dated from `from` that no payments report covers yet, with their invoice's terms, oldest first. */
export async function unreportedPayments(tx: Em, tenantId: string, from: string): Promise<UnreportedPayment[]> {
  const rows = await tx.execute<(Omit<UnreportedPayment, 'amountCents'> & { amountCents: string })[]>(
    `select p.id, to_char(p.paid_on, 'YYYY-MM-DD') as date, p.amount_cents as "amountCents",
       i.operation_category as "operationCategory", i.currency, i.accounting_currency as "accountingCurrency",
       i.exchange_rate as "exchangeRate", i.seller, i.vat_breakdown as "vatBreakdown"
     from inv_payments p join inv_invoices i on i.tenant_id = p.tenant_id and i.id = p.invoice_id
     where p.tenant_id = ? and p.paid_on >= ?::date
       and not exists (select 1 from inv_ereport_items e
         where e.tenant_id = p.tenant_id and e.kind = 'payments' and e.source_id = p.id)
     order by p.paid_on, p.id`,
    [tenantId, from],
  );
  return rows.map((r) => ({ ...r, amountCents: Number(r.amountCents) }));
}

/** The period reports (sequence 0) of a kind, oldest first. */
export const periodReports = (tx: Em, kind: EReportKind) =>
  tx.find(EReport, { kind, sequence: 0 }, { orderBy: { periodStart: 'asc' }, exclude: ['lines'] });

/** The highest sequence of a period's reports. */
export async function lastSequence(tx: Em, kind: EReportKind, periodStart: string): Promise<number> {
  const last = await tx.findOne(
    EReport,
    { kind, periodStart },
    { orderBy: { sequence: 'desc' }, fields: ['id', 'sequence'] },
  );
  return last?.sequence ?? -1;
}

/** Records what a report covered (each document or payment once: the primary key refuses a second). */
export async function coverItems(
  tx: Em,
  tenantId: string,
  kind: EReportKind,
  reportId: string,
  sourceIds: readonly string[],
): Promise<void> {
  if (!sourceIds.length) return;
  await tx.execute(
    `insert into inv_ereport_items (tenant_id, kind, source_id, report_id)
     select ?::uuid, ?, unnest(?::uuid[]), ?::uuid`,
    // An array literal: the query builder would spread a JS array into a list.
    [tenantId, kind, `{${sourceIds.join(',')}}`, reportId],
  );
}

/** The report of the em's organisation, or 404. `lock` takes its row lock (inside a transaction). */
export async function findReport(em: Em, id: string, options: { lock?: boolean } = {}): Promise<EReport> {
  const report = await em.findOne(EReport, { id }, options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!report) throw notFound('E-report');
  return report;
}

/** The columns of a report in a list (its lines are read one report at a time). */
export const reportSummaryColumns = [
  'id',
  'createdAt',
  'kind',
  'periodStart',
  'periodEnd',
  'vatRegime',
  'sequence',
  'currency',
  'itemCount',
  'taxableCents',
  'vatCents',
  'state',
  'attempts',
  'lastError',
  'sentAt',
  'platformReportId',
] as const;

/** $1 kind, $2 period on or after, $3 period on or before, $4 state, $5 cursor, $6 limit; newest period first. */
export const reportsPage = lean(EReport, {
  columns: reportSummaryColumns,
  where: `($1::text is null or kind = $1) and ($2::date is null or period_end >= $2) and ($3::date is null or period_start <= $3)
    and ($4::text is null or state = $4) and ($5::uuid is null or id < $5)`,
  orderBy: 'id desc',
  limitParam: '$6',
});
