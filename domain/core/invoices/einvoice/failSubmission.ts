import { EINVOICE_TEXT_LENGTH, EInvoiceSubmission } from '../../../../entities/core/einvoice';
import { tenantContext } from '../../../context';
import type { Services } from '../../../services';
import { moveTo } from './moveTo';

/** After every attempt failed: the submission is `failed` (submitting it again queues a new round, see submitEInvoice). */
export async function failSubmission(
  services: Services,
  tenantId: string,
  invoiceId: string,
  error: string,
): Promise<void> {
  const ctx = tenantContext(services, tenantId);
  const submission = await ctx.em.findOne(EInvoiceSubmission, { invoiceId });
  if (!submission || submission.platformId || submission.status !== 'queued') return;
  submission.lastError = error.slice(0, EINVOICE_TEXT_LENGTH);
  await moveTo(
    services,
    ctx.em,
    submission,
    'failed',
    `not submitted after every attempt: ${error}`.slice(0, EINVOICE_TEXT_LENGTH),
    null,
  );
}
