import { UnrecoverableError } from 'bullmq';
import { EInvoiceEvent, EInvoiceSubmission, finalEInvoiceStatuses, type EInvoiceStatus } from '../../../../entities/core/einvoice';
import { einvoicePlatform, PlatformError, type EInvoicePlatform } from '../../../../lib/einvoice';
import { tenantContext } from '../../../context';
import { notify } from '../../../notifications/notify';
import type { Services } from '../../../services';
import { invoicePdf } from '../documents';

/**
 * Sends one queued document to the platform. Idempotent: a submission that already has the platform's id is
 * never sent again (a replayed or retried job returns), and the platform receives the submission's id as
 * Idempotency-Key, so even a crash between its answer and our commit does not make a second document.
 * A transient failure (network, 5xx, 408, 429) records the attempt and throws: the queue retries with
 * backoff. A refusal of the document (other 4xx) is final: status rejected.
 */
export async function performSubmission(services: Services, tenantId: string, invoiceId: string): Promise<{ outcome: 'submitted' | 'already_submitted' | 'rejected' }> {
  const ctx = tenantContext(services, tenantId);
  const submission = await ctx.em.findOne(EInvoiceSubmission, { invoiceId });
  if (!submission) throw new UnrecoverableError(`no e-invoice submission for invoice ${invoiceId}`);
  if (submission.platformId || submission.status !== 'queued') return { outcome: 'already_submitted' };
  const platform = einvoicePlatform(services.config);
  if (!platform) throw new Error('no e-invoicing platform is configured (EINVOICE_PLATFORM_URL)');

  const { invoice, pdf } = await invoicePdf(ctx.em, invoiceId);
  const party = (p: typeof invoice.seller) => ({ name: p!.name, vatNumber: p!.vatNumber, legalId: p!.legalId });
  let accepted: { id: string; status: string | null };
  try {
    accepted = await platform.submit(
      {
        number: invoice.number!,
        typeCode: invoice.kind === 'credit_note' ? '381' : '380',
        issueDate: invoice.issueDate!,
        currency: invoice.currency,
        grandTotal: (invoice.grandTotalCents / 100).toFixed(2),
        seller: party(invoice.seller),
        buyer: party(invoice.buyer),
        fileName: `${invoice.number}.pdf`,
        pdf,
      },
      submission.id,
    );
  } catch (err) {
    const message = (err as Error).message.slice(0, 1000);
    submission.attempts += 1;
    submission.lastError = message;
    if (err instanceof PlatformError && err.permanent) {
      await moveTo(services, ctx.em, submission, 'rejected', message, null);
      throw new UnrecoverableError(message);
    }
    await ctx.em.flush();
    throw err;
  }
  submission.attempts += 1;
  submission.lastError = null;
  submission.platformId = accepted.id;
  submission.submittedAt = new Date();
  await moveTo(services, ctx.em, submission, 'submitted', `accepted by ${platform.name} as ${accepted.id}`, null);
  return { outcome: 'submitted' };
}

/** Records a status change of a submission (event and current status) and tells the hub. */
export async function moveTo(services: Services, em: ReturnType<typeof tenantContext>['em'], submission: EInvoiceSubmission, status: EInvoiceStatus, detail: string | null, platformEventId: string | null, at = new Date()): Promise<void> {
  const previous = submission.status;
  submission.status = status;
  em.create(EInvoiceEvent, { tenantId: submission.tenantId, invoiceId: submission.invoiceId, status, occurredAt: at, detail, platformEventId });
  await em.flush();
  await notify(services, 'core', [{ event: 'einvoice.status_changed', tenantId: submission.tenantId, subject: { invoiceId: submission.invoiceId }, data: { status, previous, detail } }]);
}

/** After every attempt failed: the submission is `failed` (submitting it again queues a new round, see submitEInvoice). */
export async function failSubmission(services: Services, tenantId: string, invoiceId: string, error: string): Promise<void> {
  const ctx = tenantContext(services, tenantId);
  const submission = await ctx.em.findOne(EInvoiceSubmission, { invoiceId });
  if (!submission || submission.platformId || submission.status !== 'queued') return;
  submission.lastError = error.slice(0, 1000);
  await moveTo(services, ctx.em, submission, 'failed', `not submitted after every attempt: ${error}`.slice(0, 1000), null);
}

const lifecycleStatuses = new Set<EInvoiceStatus>(['submitted', 'rejected', 'delivered', 'received', 'approved', 'disputed', 'refused', 'paid']);
/** Written into the claim as literals (constants), so the planner matches it with the partial poll index. */
const finalList = finalEInvoiceStatuses.map((s) => `'${s}'`).join(', ');

/**
 * Reads the lifecycle of the submitted documents whose status is not final (every organisation), at most `limit`
 * a run: those polled longest ago first, never polled ones before them. The run stamps `polledAt` on the ones it
 * takes before reading them, so a document with no news, or whose read fails, goes to the back of the line and
 * every open document is read in turn, however many there are. Records the events not seen yet (unique per
 * platform event id) and moves each submission to its latest event's status; run again, it records nothing twice.
 * One document's failure does not stop the others.
 */
export async function pollLifecycles(services: Services, limit = 500): Promise<{ polled: number; changed: number }> {
  const platform = einvoicePlatform(services.config);
  if (!platform) return { polled: 0, changed: 0 };
  // One statement: two runs at once (a slow run overlapping the next slot) take different documents.
  const taken = await services.orm.em.fork().execute<{ id: string; tenant_id: string; invoice_id: string }[]>(
    `update inv_einvoice_submissions set polled_at = clock_timestamp() where id in (
       select id from inv_einvoice_submissions where platform_id is not null and status not in (${finalList})
       order by polled_at asc nulls first, id limit ? for update skip locked)
     returning id, tenant_id, invoice_id`,
    [limit],
  );
  let changed = 0;
  for (const row of taken) {
    try {
      if (await refreshOne(services, platform, row.tenant_id, row.id)) changed += 1;
    } catch (err) {
      services.logger.warn({ invoiceId: row.invoice_id, err: (err as Error).message }, 'e-invoice lifecycle not read');
    }
  }
  return { polled: taken.length, changed };
}

async function refreshOne(services: Services, platform: EInvoicePlatform, tenantId: string, id: string): Promise<boolean> {
  const ctx = tenantContext(services, tenantId);
  const submission = await ctx.em.findOneOrFail(EInvoiceSubmission, { id });
  const events = (await platform.lifecycle(submission.platformId!)).filter((e) => lifecycleStatuses.has(e.status as EInvoiceStatus)).sort((a, b) => a.at.getTime() - b.at.getTime());
  const seen = new Set((await ctx.em.find(EInvoiceEvent, { invoiceId: submission.invoiceId, platformEventId: { $ne: null } })).map((e) => e.platformEventId));
  const fresh = events.filter((e) => !seen.has(e.id));
  for (const e of fresh) await moveTo(services, ctx.em, submission, e.status as EInvoiceStatus, e.reason, e.id, e.at);
  return fresh.length > 0;
}
