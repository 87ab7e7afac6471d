import { LockMode } from '@mikro-orm/core';
import { EInvoiceEvent, EInvoiceSubmission, finalEInvoiceStatusList } from '../../../entities/core/einvoice';
import { Invoice, InvoicePayment, type InvoiceKind } from '../../../entities/core/invoice';
import type { Em } from '../../../lib/db';
import { notFound } from '../../../lib/errors';
import { lean, type Lean } from '../../../lib/lean';

/**
 * The statements of invoicing: documents, their numbering sequences, payments and e-invoice submissions. No rule
 * here: the use cases decide, these read and write.
 */

// ---- documents

/** The invoice or credit note of the em's organisation, or 404. `lock` takes its row lock (inside a transaction). */
export async function findInvoice(em: Em, id: string, options: { lock?: boolean } = {}): Promise<Invoice> {
  const invoice = await em.findOne(Invoice, { id }, options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!invoice) throw notFound('Invoice');
  return invoice;
}

/** A document of any organisation (the customer's signed link carries no organisation), or null. */
export const invoiceOfAnyTenant = (em: Em, id: string): Promise<Invoice | null> =>
  em.findOne(Invoice, { id }, { filters: false });

/** The credit notes issued against an invoice (entities: their VAT breakdowns are compared). */
export const creditNotesOfInvoice = (em: Em, invoiceId: string) => em.find(Invoice, { creditedInvoiceId: invoiceId });

/** Whether a document already carries this number. */
export const numberIssued = async (em: Em, number: string): Promise<boolean> =>
  (await em.count(Invoice, { number })) > 0;

// Lean statements (docs/database-path.md): every combination of the list's filters is one prepared statement.
/** $1 kind, $2 status, $3 customer, $4 overdue before this date, $5 cursor, $6 limit; newest first. */
export const invoicesPage = lean(Invoice, {
  where: `($1::text is null or kind = $1) and ($2::text is null or status = $2) and ($3::uuid is null or customer_id = $3)
    and ($4::date is null or (kind = 'invoice' and status in ('issued', 'partially_paid', 'partially_credited') and due_date < $4))
    and ($5::uuid is null or id < $5)`,
  orderBy: 'id desc',
  limitParam: '$6',
});

/** A document shown among another's related documents. */
export const relatedColumns = ['id', 'kind', 'number', 'issueDate', 'grandTotalCents'] as const;
export type RelatedDocument = Pick<Lean<Invoice>, (typeof relatedColumns)[number]>;

export const invoiceById = lean(Invoice, { where: 'id = $1' });
export const relatedById = lean(Invoice, { columns: relatedColumns, where: 'id = $1' });
export const paymentsOf = lean(InvoicePayment, { where: 'invoice_id = $1', orderBy: 'id asc' });
export const creditNotesOf = lean(Invoice, {
  columns: relatedColumns,
  where: 'credited_invoice_id = $1',
  orderBy: 'id asc',
});

/**
 * A customer's issued documents for the CRM timeline, newest first, keyset (issuedAt, id) < before: the page
 * before `before.at`, and the rows at exactly `before.at` with a lower id.
 */
export async function issuedDocumentsOfCustomer(
  em: Em,
  customerId: string,
  query: { before: { at: Date; id: string }; from?: Date; limit: number },
): Promise<Invoice[]> {
  const rows = await em.find(
    Invoice,
    {
      customerId,
      status: { $ne: 'draft' },
      issuedAt: { $lt: query.before.at, ...(query.from ? { $gte: query.from } : {}) },
    },
    { orderBy: { issuedAt: 'desc', id: 'desc' }, limit: query.limit },
  );
  const sameInstant = await em.find(
    Invoice,
    { customerId, status: { $ne: 'draft' }, issuedAt: query.before.at, id: { $lt: query.before.id } },
    { orderBy: { id: 'desc' }, limit: query.limit },
  );
  return [...sameInstant, ...rows].slice(0, query.limit);
}

/** The issued invoices (not credit notes) of some customers since an instant. */
export const issuedInvoicesOfCustomers = (em: Em, customerIds: string[], since: Date) =>
  em.find(Invoice, {
    customerId: { $in: customerIds },
    kind: 'invoice',
    status: { $ne: 'draft' },
    issuedAt: { $gte: since },
  });

// ---- numbering

/**
 * Increments the counter of a sequence (made at 1 on first use) and returns its new value. The upsert takes the
 * counter row's lock until the calling transaction ends: issuers of one sequence wait for each other, and a
 * rolled-back issue gives the value back.
 */
export async function nextSequenceNo(em: Em, tenantId: string, kind: InvoiceKind, year: number): Promise<number> {
  const [row] = await em.execute<{ last_no: number }[]>(
    `insert into inv_sequences (tenant_id, kind, year, last_no) values (?, ?, ?, 1)
     on conflict (tenant_id, kind, year) do update set last_no = inv_sequences.last_no + 1 returning last_no`,
    [tenantId, kind, year],
  );
  return Number(row.last_no);
}

// ---- e-invoice submissions

// Lean statements (docs/database-path.md). Submitting reads the state after its transaction, so these see it.
/** Whether the organisation has issued any document (invoice, credit note): a numbered one. */
export const anyIssuedDocument = async (em: Em): Promise<boolean> =>
  (await em.findOne(Invoice, { number: { $ne: null } }, { fields: ['id'] })) !== null;

export const invoiceExists = lean(Invoice, { columns: ['id'], where: 'id = $1' });
export const submissionOf = lean(EInvoiceSubmission, { where: 'invoice_id = $1' });
export const submissionHistoryOf = lean(EInvoiceEvent, {
  where: 'invoice_id = $1',
  orderBy: 'occurred_at asc, id asc',
});

/** How many rounds of a document's submission ended `failed`. */
export const failedRounds = (em: Em, invoiceId: string) => em.count(EInvoiceEvent, { invoiceId, status: 'failed' });

/** The platform event ids already recorded for a document. */
export async function platformEventsSeen(em: Em, invoiceId: string): Promise<Set<string>> {
  return new Set(
    (await em.find(EInvoiceEvent, { invoiceId, platformEventId: { $ne: null } })).flatMap((e) =>
      e.platformEventId ? [e.platformEventId] : [],
    ),
  );
}

/**
 * Takes up to `limit` submissions on the platform whose status is not final (every organisation), polled longest
 * ago first (never polled before them), stamping `polledAt` on them. One statement with skip locked: two runs at
 * once take different documents. The final statuses are literals so the planner uses the partial poll index.
 */
export function takeSubmissionsToPoll(em: Em, limit: number) {
  return em.execute<{ id: string; tenant_id: string; invoice_id: string }[]>(
    `update inv_einvoice_submissions set polled_at = clock_timestamp() where id in (
       select id from inv_einvoice_submissions where platform_id is not null and status not in (${finalEInvoiceStatusList})
       order by polled_at asc nulls first, id limit ? for update skip locked)
     returning id, tenant_id, invoice_id`,
    [limit],
  );
}

/**
 * Submissions (every organisation) queued between two days and `olderThanMs` ago and not handed to the platform,
 * oldest first, with their current round (the failures so far).
 */
export function queuedSubmissionsToRedrive(em: Em, olderThanMs: number, limit: number) {
  return em.execute<{ tenant_id: string; invoice_id: string; round: number }[]>(
    `select s.tenant_id, s.invoice_id,
            (select count(*)::int from inv_einvoice_events e where e.tenant_id = s.tenant_id and e.invoice_id = s.invoice_id and e.status = 'failed') as round
       from inv_einvoice_submissions s
      where s.status = 'queued' and s.platform_id is null and s.updated_at > now() - interval '2 days' and s.updated_at < now() - ? * interval '1 millisecond'
      order by s.updated_at limit ${Number(limit)}`,
    [olderThanMs],
  );
}
