import { newId } from '../../../../entities/base';
import { Invoice, INVOICE_TEXT_LENGTHS } from '../../../../entities/core/invoice';
import type { MailMessage } from '../../../../entities/platform/mail';
import { AppError } from '../../../../lib/errors';
import { audit } from '../../../platform/audit';
import { dispatchMails } from '../../../platform/mail';
import type { Services } from '../../../services';
import { tenantContext } from '../../../context';
import { composeInvoiceMail, invoiceRecipient } from '../invoiceMail';
import { issueLockedDraft, notifyIssued } from '../issueInvoice';
import { invoiceToday } from '../lookup';
import { payUrlOf } from '../payLinks/payUrl';
import { periodOf, runDateWithin } from './periods';
import { claimPeriod, dueSchedules, findSchedule } from './store';

/** Schedules read by one statement of a pass. */
const BATCH = 200;

export interface RecurringPassResult {
  invoiced: number;
  /** Schedules left due because a period could not be invoiced (retried by the next pass). */
  failed: number;
}

/** The French period mention appended to the note: "Période du 01/03/2026 au 31/03/2026". */
const periodNote = (start: string, end: string) =>
  `Période du ${start.split('-').reverse().join('/')} au ${end.split('-').reverse().join('/')}`;

/**
 * Invoices one period of a recurring invoice, in one transaction: locks the schedule, re-reads that its next
 * period is due, records the period (unique (schedule, period): a second pass finds it taken and writes nothing),
 * creates the invoice from the template, issues it when autoIssue, writes its mail when autoSend, and moves the
 * schedule to its next period (or ends it). A worker dying anywhere in between leaves nothing: the transaction
 * rolls back and the period is still due. Returns what to do after commit, or null when nothing was due.
 */
async function invoiceNextPeriod(
  services: Services,
  tenantId: string,
  scheduleId: string,
  today: string,
): Promise<{ invoice: Invoice; mail: MailMessage | null } | null> {
  const ctx = tenantContext(services, tenantId);
  return ctx.em.transactional(async (em) => {
    const tx = { ...ctx, em };
    const schedule = await findSchedule(em, scheduleId, { lock: true });
    if (schedule.status !== 'active' || !schedule.nextRunOn || schedule.nextRunOn > today) return null;
    const k = schedule.nextPeriod;
    const period = periodOf(schedule, k);
    const invoice = em.create(Invoice, {
      tenantId,
      currency: schedule.currency,
      kind: 'invoice',
      status: 'draft',
      customerId: schedule.customerId,
      createdBy: null,
      seller: null,
      buyer: null,
      creditedInvoiceId: null,
      creditReason: null,
      lines: schedule.lines,
      vatBreakdown: schedule.vatBreakdown,
      lineTotalCents: schedule.lineTotalCents,
      taxExclusiveCents: schedule.taxExclusiveCents,
      vatTotalCents: schedule.vatTotalCents,
      grandTotalCents: schedule.grandTotalCents,
      buyerOverrides: schedule.buyerOverrides,
      dueDate: null,
      paymentTerms: schedule.paymentTerms ?? null,
      deliveryDate: null,
      buyerReference: null,
      orderReference: null,
      note: [schedule.note, periodNote(period.start, period.end)]
        .filter(Boolean)
        .join('\n')
        .slice(0, INVOICE_TEXT_LENGTHS.note),
    });
    const next = k + 1;
    const nextRunOn = runDateWithin(schedule, next);
    em.assign(schedule, { nextPeriod: next, nextRunOn, status: nextRunOn ? 'active' : 'ended' });
    const claimed = await claimPeriod(em, {
      id: newId(),
      tenantId,
      scheduleId,
      periodIndex: k,
      start: period.start,
      end: period.end,
      invoiceId: invoice.id,
    });
    if (!claimed) {
      em.remove(invoice);
      return null;
    }
    audit(em, {
      action: 'core.invoice.created',
      actorId: null,
      tenantId,
      targetType: 'invoice',
      targetId: invoice.id,
      data: { recurringInvoiceId: scheduleId, period: k },
    });
    await em.flush();
    let mail: MailMessage | null = null;
    if (schedule.autoIssue) {
      await issueLockedDraft(tx, invoice, schedule.dueDays);
      const to = schedule.autoSend ? invoiceRecipient(invoice) : null;
      const payUrl = to ? await payUrlOf(services, em, invoice) : null;
      if (to)
        mail = composeInvoiceMail(em, services, invoice, to, {
          dedupeKey: `invoice-recurring:${scheduleId}:${k}`,
          payUrl,
        });
    }
    return { invoice, mail };
  });
}

/**
 * The clock's pass (hourly): every active recurring invoice whose next period's day has come gets one invoice
 * per period due, oldest first, so a clock that was down catches up every missed period. Each period is its own
 * transaction (invoiceNextPeriod). A schedule whose period fails (an incomplete seller record makes issuing
 * refuse) is logged and left due; the others go on.
 */
export async function runRecurringInvoices(services: Services, now = new Date()): Promise<RecurringPassResult> {
  const today = invoiceToday(now);
  const result: RecurringPassResult = { invoiced: 0, failed: 0 };
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const due = await dueSchedules(services.orm.em.fork(), today, after, BATCH);
    for (const { id, tenant_id: tenantId } of due) {
      try {
        for (;;) {
          const made = await invoiceNextPeriod(services, tenantId, id, today);
          if (!made) break;
          result.invoiced += 1;
          if (made.invoice.status !== 'draft') await notifyIssued({ services, tenantId }, made.invoice);
          if (made.mail) await dispatchMails(services, [made.mail]);
        }
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        result.failed += 1;
        services.logger.warn({ recurringInvoiceId: id, code: err.code }, 'recurring invoice period not invoiced');
      }
    }
    if (due.length < BATCH) return result;
    after = due[due.length - 1].id;
  }
}
