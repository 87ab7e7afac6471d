import type { VatBreakdown } from '../../../../entities/core/invoice';
import { InvoiceReminder } from '../../../../entities/core/receivables';
import { lean } from '../../../../lib/lean';
import type { Em } from '../../../../lib/db';

/**
 * The statements of the accountant's exports and of payment reminders. Raw SQL bound to the tenant explicitly
 * (the exports read in keyset batches, so each statement is short however large the year).
 */

/** A journal row: an issued document or a payment, with what its lettering needs. Dates as YYYY-MM-DD text. */
export interface JournalRow {
  src: 'sale' | 'payment';
  id: string;
  kind: 'invoice' | 'credit_note' | 'payment';
  d: string;
  ord: number;
  at: string;
  customer_id: string;
  customer_name: string;
  number: string;
  currency: string;
  accounting_currency: string | null;
  exchange_rate: string | null;
  /** Payments and credit notes: what their invoice had been settled by before (payments and credit notes recorded earlier). */
  settled_before: string | null;
  valid_date: string;
  vat_breakdown: VatBreakdown[] | null;
  amount_cents: string;
  reference: string | null;
  letter_number: string;
  settled: boolean;
  settled_on: string | null;
}

export interface JournalCursor {
  d: string;
  ord: number;
  at: string;
  id: string;
}

/**
 * The organisation's issued documents (issue day in [from, to]) and payments (paid on a day in [from, to]) in
 * date order (sales before the bank on one day, then the instant recorded), after `cursor`. Each row names the
 * invoice its customer line letters with (a credit note's: the invoice it corrects) and whether that invoice is
 * settled (nothing outstanding), with the day of its last payment or credit note.
 */
export function journalBatch(
  em: Em,
  tenantId: string,
  period: { from: string; to: string },
  cursor: JournalCursor,
  limit: number,
): Promise<JournalRow[]> {
  const letter = (alias: string) => `
    ${alias}.number as letter_number,
    (${alias}.paid_cents + ${alias}.credited_cents >= ${alias}.grand_total_cents) as settled,
    (select greatest(
        (select max(p2.paid_on) from inv_payments p2 where p2.tenant_id = ${alias}.tenant_id and p2.invoice_id = ${alias}.id),
        (select max(c2.issue_date) from inv_invoices c2 where c2.tenant_id = ${alias}.tenant_id and c2.credited_invoice_id = ${alias}.id)
      ))::text as settled_on`;
  /** What invoice `inv` was settled by before the instant and id given: payments recorded, credit notes issued. */
  const settledBefore = (inv: string, instant: string, id: string) => `(
    (select coalesce(sum(p3.amount_cents), 0) from inv_payments p3 where p3.tenant_id = ${inv}.tenant_id
       and p3.invoice_id = ${inv}.id and (p3.created_at, p3.id) < (${instant}, ${id}))
    + (select coalesce(sum(c3.grand_total_cents), 0) from inv_invoices c3 where c3.tenant_id = ${inv}.tenant_id
       and c3.credited_invoice_id = ${inv}.id and c3.status <> 'draft' and (c3.issued_at, c3.id) < (${instant}, ${id}))
  )::text`;
  return em.execute<JournalRow[]>(
    `select * from (
       select 'sale' as src, i.id, i.kind, i.issue_date::text as d, 0 as ord, i.issued_at::text as at, i.customer_id,
         i.buyer->>'name' as customer_name, i.number, i.currency, i.accounting_currency, i.exchange_rate::text as exchange_rate,
         case when i.kind = 'credit_note' then ${settledBefore('l', 'i.issued_at', 'i.id')} end as settled_before,
         (i.issued_at at time zone 'Europe/Paris')::date::text as valid_date,
         i.vat_breakdown, i.grand_total_cents::text as amount_cents, null as reference, ${letter('l')}
       from inv_invoices i join inv_invoices l on l.tenant_id = i.tenant_id and l.id = coalesce(i.credited_invoice_id, i.id)
       where i.tenant_id = ? and i.status <> 'draft' and i.issue_date between ?::date and ?::date
       union all
       select 'payment', p.id, 'payment', p.paid_on::text, 1, p.created_at::text, l.customer_id,
         l.buyer->>'name', l.number, l.currency, l.accounting_currency, l.exchange_rate::text,
         ${settledBefore('l', 'p.created_at', 'p.id')},
         (p.created_at at time zone 'Europe/Paris')::date::text,
         null, p.amount_cents::text, p.reference, ${letter('l')}
       from inv_payments p join inv_invoices l on l.tenant_id = p.tenant_id and l.id = p.invoice_id
       where p.tenant_id = ? and p.paid_on between ?::date and ?::date
     ) e
     where (e.d::date, e.ord, e.at::timestamptz, e.id) > (?::date, ?, ?::timestamptz, ?::uuid)
     order by e.d::date, e.ord, e.at::timestamptz, e.id limit ?`,
    [
      tenantId,
      period.from,
      period.to,
      tenantId,
      period.from,
      period.to,
      cursor.d,
      cursor.ord,
      cursor.at,
      cursor.id,
      limit,
    ],
  );
}

/** Issued documents of a period (issue day in [from, to]) after `after` (id), in id order, for the CSV. */
export function invoicesCsvBatch(
  em: Em,
  tenantId: string,
  period: { from: string; to: string },
  after: string,
  limit: number,
) {
  return em.execute<Record<string, unknown>[]>(
    `select i.id, i.number, i.kind, i.status, i.issue_date::text as "issueDate", i.due_date::text as "dueDate",
       i.customer_id as "customerId", i.buyer->>'name' as "customerName", i.currency,
       i.tax_exclusive_cents::int8 as "taxExclusiveCents", i.vat_total_cents::int8 as "vatTotalCents",
       i.grand_total_cents::int8 as "grandTotalCents", i.paid_cents::int8 as "paidCents", i.credited_cents::int8 as "creditedCents",
       c.number as "creditedInvoiceNumber", i.accounting_currency as "accountingCurrency",
       trim_scale(i.exchange_rate)::text as "exchangeRate"
     from inv_invoices i left join inv_invoices c on c.tenant_id = i.tenant_id and c.id = i.credited_invoice_id
     where i.tenant_id = ? and i.status <> 'draft' and i.issue_date between ?::date and ?::date and i.id > ?::uuid
     order by i.id limit ?`,
    [tenantId, period.from, period.to, after, limit],
  );
}

/** Payments of a period (paid on a day in [from, to]) after `after` (id), in id order, for the CSV. */
export function paymentsCsvBatch(
  em: Em,
  tenantId: string,
  period: { from: string; to: string },
  after: string,
  limit: number,
) {
  return em.execute<Record<string, unknown>[]>(
    `select p.id, p.paid_on::text as "paidOn", p.amount_cents::int8 as "amountCents", p.method, p.reference,
       p.invoice_id as "invoiceId", i.number as "invoiceNumber", i.customer_id as "customerId",
       i.buyer->>'name' as "customerName", i.currency
     from inv_payments p join inv_invoices i on i.tenant_id = p.tenant_id and i.id = p.invoice_id
     where p.tenant_id = ? and p.paid_on between ?::date and ?::date and p.id > ?::uuid
     order by p.id limit ?`,
    [tenantId, period.from, period.to, after, limit],
  );
}

// ---- payment reminders

/** An open invoice at a step of its organisation's reminder plan that was not mailed yet. */
export interface ReminderCandidate {
  tenant_id: string;
  invoice_id: string;
  customer_id: string;
  number: string;
  due_date: string;
  outstanding_cents: string;
  currency: string;
  mail_to: string | null;
  seller_name: string | null;
  offsets: number[];
  /** The organisation takes payments online: the reminder carries the payment link. */
  online_payment: boolean;
}

/**
 * Open invoices (every organisation with reminders on) due between `today` − 400 days and `today` + 400 days,
 * with their organisation's plan (the default plan without settings), after `after` (id), in id order. Settled
 * and credited invoices are not open: their reminders stop.
 */
export function openInvoicesToRemind(em: Em, today: string, defaultOffsets: number[], after: string, limit: number) {
  return em.execute<ReminderCandidate[]>(
    `select i.tenant_id, i.id as invoice_id, i.customer_id, i.number, i.due_date::text as due_date,
       (i.grand_total_cents - i.paid_cents - i.credited_cents)::text as outstanding_cents, i.currency,
       coalesce(nullif(i.buyer->>'email', ''), c.primary_email) as mail_to, i.seller->>'name' as seller_name,
       coalesce(s.reminder_offsets, ?::jsonb) as offsets, coalesce(s.online_payment_enabled, false) as online_payment
     from inv_invoices i
     join crm_customers c on c.tenant_id = i.tenant_id and c.id = i.customer_id
     left join inv_accounting_settings s on s.tenant_id = i.tenant_id
     where i.kind = 'invoice' and i.status in ('issued', 'partially_paid', 'partially_credited')
       and i.due_date between ?::date - 400 and ?::date + 400 and coalesce(s.reminders_enabled, true)
       and i.id > ?::uuid
     order by i.id limit ?`,
    [JSON.stringify(defaultOffsets), today, today, after, limit],
  );
}

/**
 * Records that a step of an invoice is being reminded, unless it already was (the unique key decides: two runs at
 * once insert one row). True when this call inserted it.
 */
export async function claimReminder(
  em: Em,
  row: {
    id: string;
    tenantId: string;
    invoiceId: string;
    customerId: string;
    offsetDays: number;
    dueDate: string;
    outstandingCents: number;
    mailTo: string;
  },
): Promise<boolean> {
  const inserted = await em.execute<{ id: string }[]>(
    `insert into inv_reminders (id, tenant_id, created_at, invoice_id, customer_id, offset_days, due_date, outstanding_cents, mail_to)
     values (?, ?, now(), ?, ?, ?, ?, ?, ?) on conflict (tenant_id, invoice_id, offset_days) do nothing returning id`,
    [
      row.id,
      row.tenantId,
      row.invoiceId,
      row.customerId,
      row.offsetDays,
      row.dueDate,
      row.outstandingCents,
      row.mailTo,
    ],
  );
  return inserted.length > 0;
}

/** Links a reminder to the mail that carries it. */
export const setReminderMail = (em: Em, reminderId: string, mailId: string) =>
  em.execute('update inv_reminders set mail_id = ? where id = ?', [mailId, reminderId]);

/** A customer's reminders for the CRM timeline, newest first, keyset (createdAt, id) < before. */
export const remindersOfCustomer = (
  em: Em,
  tenantId: string,
  customerId: string,
  query: { before: { at: Date; id: string }; from?: Date; limit: number },
) =>
  em.execute<
    {
      id: string;
      created_at: Date;
      offset_days: number;
      due_date: string;
      outstanding_cents: string;
      number: string;
      mail_to: string;
    }[]
  >(
    `select r.id, r.created_at, r.offset_days, r.due_date::text as due_date, r.outstanding_cents::text as outstanding_cents, i.number, r.mail_to
     from inv_reminders r join inv_invoices i on i.tenant_id = r.tenant_id and i.id = r.invoice_id
     where r.tenant_id = ? and r.customer_id = ? and (r.created_at, r.id) < (?, ?::uuid) and (?::timestamptz is null or r.created_at >= ?)
     order by r.created_at desc, r.id desc limit ?`,
    [tenantId, customerId, query.before.at, query.before.id, query.from ?? null, query.from ?? null, query.limit],
  );

/** The reminders mailed for one invoice ($1), oldest first. */
export const remindersOfInvoice = lean(InvoiceReminder, {
  where: 'invoice_id = $1',
  orderBy: 'created_at asc, id asc',
});

/** $1 cursor, $2 limit: the organisation's reminders, newest first. */
export const remindersPage = lean(InvoiceReminder, {
  where: '($1::uuid is null or id < $1)',
  orderBy: 'id desc',
  limitParam: '$2',
});
