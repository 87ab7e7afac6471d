import type { Invoice } from '../../../entities/core/invoice';
import { DAY_MS } from '../../../lib/calendar';
import { registerHealthSignal, type SignalReading } from '../crm/healthSignals';
import { registerTimelineProvider } from '../crm/timeline';
import { decimalIn, inAccountingCurrency } from './currencies';
import { invoiceToday } from './lookup';
import { outstandingOf } from './settlement';
import { issuedDocumentsOfCustomer, issuedInvoicesOfCustomers } from './store';
import { remindersOfCustomer } from './accounting/store';
import './quotes/quoteTimeline';

/**
 * Invoicing's parts of the CRM: issued invoices and credit notes on the customer's timeline (at their issue
 * time, type = their current status), and the unpaid/overdue invoices health signal. Loaded once per process
 * (imported by the invoicing routes and the e-invoice worker).
 */
registerTimelineProvider('invoice', async (ctx, customerId, query) => {
  const documents = await issuedDocumentsOfCustomer(ctx.em, customerId, query);
  return documents.map((i) => ({
    source: 'invoice',
    id: i.id,
    at: i.issuedAt!,
    type: i.kind === 'credit_note' ? 'credit_note' : i.status,
    title: `${i.kind === 'credit_note' ? 'Avoir' : 'Facture'} ${i.number}`,
    summary: i.kind === 'credit_note' ? (i.creditReason ?? null) : null,
    data: {
      kind: i.kind,
      number: i.number,
      status: i.status,
      grandTotalCents: i.grandTotalCents,
      outstandingCents: outstandingOf(i),
      dueDate: i.dueDate ?? null,
      currency: i.currency,
    },
  }));
});

/**
 * Unpaid invoices: 1 when nothing is outstanding, lowered by what is overdue (and a little by what is merely
 * outstanding): value = 1 − min(1, overdue / billed) × 0.8 − min(1, outstanding not yet due / billed) × 0.2,
 * over the customer's invoices issued in the last 365 days. Applies to customers with such invoices.
 */
registerHealthSignal({
  key: 'unpaid_invoices',
  label: 'Unpaid and overdue invoices',
  weight: 2,
  async compute(ctx, customerIds, now) {
    const readings = new Map<string, SignalReading | null>();
    if (!customerIds.length) return readings;
    const since = new Date(now.getTime() - 365 * DAY_MS);
    const today = invoiceToday(now);
    const invoices = await issuedInvoicesOfCustomers(ctx.em, customerIds, since);
    const byCustomer = new Map<string, Invoice[]>();
    for (const i of invoices) byCustomer.set(i.customerId, [...(byCustomer.get(i.customerId) ?? []), i]);
    for (const [customerId, list] of byCustomer) {
      // In the accounting currency: a foreign-currency invoice converted at the rate it was issued with.
      const books = (i: Invoice, minor: number) => inAccountingCurrency(minor, i);
      const billed = list.reduce((s, i) => s + books(i, i.grandTotalCents - i.creditedCents), 0);
      const overdue = list
        .filter((i) => i.dueDate && i.dueDate < today)
        .reduce((s, i) => s + books(i, outstandingOf(i)), 0);
      const pending = list.reduce((s, i) => s + books(i, outstandingOf(i)), 0) - overdue;
      const currency = list[0]!.accountingCurrency ?? list[0]!.currency;
      const value =
        billed > 0 ? Math.max(0, 1 - Math.min(1, overdue / billed) * 0.8 - Math.min(1, pending / billed) * 0.2) : 1;
      const overdueCount = list.filter((i) => i.dueDate && i.dueDate < today && outstandingOf(i) > 0).length;
      readings.set(customerId, {
        value,
        detail: overdueCount
          ? `${overdueCount} overdue invoice(s), ${decimalIn(overdue, currency)} ${currency} overdue`
          : pending
            ? `${decimalIn(pending, currency)} ${currency} outstanding, nothing overdue`
            : 'every invoice paid',
        facts: {
          billedCents: billed,
          overdueCents: overdue,
          outstandingCents: overdue + pending,
          overdueInvoices: overdueCount,
        },
      });
    }
    return readings;
  },
});

/** Payment reminders mailed on the customer's timeline (source `invoice_reminder`, at the time they were sent). */
registerTimelineProvider('invoice_reminder', async (ctx, customerId, query) => {
  const rows = await remindersOfCustomer(ctx.em, ctx.tenantId, customerId, query);
  return rows.map((r) => ({
    source: 'invoice_reminder',
    id: r.id,
    at: new Date(r.created_at),
    type: r.offset_days > 0 ? 'overdue' : 'upcoming',
    title: `Relance facture ${r.number}`,
    summary: `${r.offset_days >= 0 ? '+' : ''}${r.offset_days} j / échéance ${r.due_date}`,
    data: {
      number: r.number,
      offsetDays: r.offset_days,
      dueDate: r.due_date,
      outstandingCents: Number(r.outstanding_cents),
      mailedTo: r.mail_to,
    },
  }));
});
