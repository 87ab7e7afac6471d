import { EInvoiceEvent, EInvoiceSubmission } from '../../../../entities/core/einvoice';
import { einvoicePlatform } from '../../../../lib/einvoice';
import { unavailable } from '../../../../lib/errors';
import { einvoiceQueue } from '../../../../queues/einvoice';
import type { TenantContext } from '../../../context';
import { enqueueStaged, stageJob } from '../../../jobs/stageJob';
import { notIssued } from '../lookup';
import { getEInvoice, type EInvoiceState } from './getEInvoice';
import { failedRounds, findInvoice } from '../store';

/**
 * Queues an issued document for the e-invoicing platform: records the submission (status queued) once per
 * document, with its job staged in the same transaction (enqueued once committed, or by the relay after a
 * crash or a Redis outage). `queued` tells whether this call queued the document (202):
 *  - the first submission;
 *  - a resubmission of one that `failed` (the platform could not be reached after every attempt): queued again,
 *    with a job of its own round (its id einvoice.submit.<invoiceId>.<round>, the failed job being kept).
 * Submitting again answers the existing submission unchanged (`queued` false); one still queued and not sent
 * is enqueued again under the same job id, a no-op while its job exists. No platform configured: 503
 * einvoice_platform_not_configured.
 */
export async function submitEInvoice(
  ctx: TenantContext,
  invoiceId: string,
): Promise<{ state: EInvoiceState; queued: boolean }> {
  await findInvoice(ctx.em, invoiceId);
  const platform = einvoicePlatform(ctx.services.config);
  if (!platform)
    throw unavailable(
      'einvoice_platform_not_configured',
      'No e-invoicing platform is configured (EINVOICE_PLATFORM_URL)',
    );
  const { queued, round, staged } = await ctx.em.transactional(async (em) => {
    const invoice = await findInvoice(em, invoiceId, { lock: true });
    if (invoice.status === 'draft') throw notIssued();
    const submission = await em.findOne(EInvoiceSubmission, { invoiceId });
    const event = (detail: string) =>
      em.create(EInvoiceEvent, {
        tenantId: ctx.tenantId,
        invoiceId,
        status: 'queued',
        occurredAt: new Date(),
        detail,
        platformEventId: null,
      });
    const job = (round: number) =>
      stageJob(em, einvoiceQueue, { kind: 'submit', tenantId: ctx.tenantId, invoiceId }, submitJobId(invoiceId, round));
    if (!submission) {
      em.create(EInvoiceSubmission, {
        tenantId: ctx.tenantId,
        invoiceId,
        status: 'queued',
        platform: platform.name,
        platformId: null,
        submittedAt: null,
        attempts: 0,
        lastError: null,
      });
      event(`queued for ${platform.name}`);
      return { queued: true, round: 0, staged: job(0) };
    }
    if (submission.platformId || (submission.status !== 'queued' && submission.status !== 'failed'))
      return { queued: false, round: null, staged: null };
    // Each failure ended one round; the round's job id keeps a repeated call idempotent.
    const failures = await failedRounds(em, invoiceId);
    if (submission.status === 'queued') return { queued: false, round: failures, staged: null };
    Object.assign(submission, { status: 'queued', platform: platform.name, lastError: null });
    event(`queued again for ${platform.name} after failing`);
    return { queued: true, round: failures, staged: job(failures) };
  });
  if (staged) await enqueueStaged(ctx.services, [staged]);
  else if (round !== null)
    await ctx.services.queues.add(
      einvoiceQueue,
      { kind: 'submit', tenantId: ctx.tenantId, invoiceId },
      { jobId: submitJobId(invoiceId, round) },
    );
  return { state: await getEInvoice(ctx, invoiceId), queued };
}

/** The job of a submission's round: the first keeps the id it always had. */
export const submitJobId = (invoiceId: string, round: number) =>
  round === 0 ? `einvoice.submit.${invoiceId}` : `einvoice.submit.${invoiceId}.${round}`;
