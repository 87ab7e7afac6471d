import { UnrecoverableError } from 'bullmq';
import { EINVOICE_TEXT_LENGTH, EInvoiceSubmission } from '../../../../entities/core/einvoice';
import { einvoicePlatform, PlatformError } from '../../../../lib/einvoice';
import { tenantContext } from '../../../context';
import type { Services } from '../../../services';
import { decimalIn } from '../currencies';
import { getInvoicePdf } from '../getInvoicePdf';
import { moveTo } from './moveTo';

/**
 * Sends one queued document to the platform. Idempotent: a submission that already has the platform's id is
 * never sent again (a replayed or retried job returns), and the platform receives the submission's id as
 * Idempotency-Key, so even a crash between its answer and our commit does not make a second document.
 * A transient failure (network, 5xx, 408, 429) records the attempt and throws: the queue retries with
 * backoff. A refusal of the document (other 4xx) is final: status rejected.
 */
export async function performSubmission(
  services: Services,
  tenantId: string,
  invoiceId: string,
): Promise<{ outcome: 'submitted' | 'already_submitted' | 'rejected' }> {
  const ctx = tenantContext(services, tenantId);
  const submission = await ctx.em.findOne(EInvoiceSubmission, { invoiceId });
  if (!submission) throw new UnrecoverableError(`no e-invoice submission for invoice ${invoiceId}`);
  if (submission.platformId || submission.status !== 'queued') return { outcome: 'already_submitted' };
  const platform = einvoicePlatform(services.config);
  if (!platform) throw new Error('no e-invoicing platform is configured (EINVOICE_PLATFORM_URL)');

  const { invoice, pdf } = await getInvoicePdf(ctx.em, invoiceId);
  const party = (p: typeof invoice.seller) => ({ name: p!.name, vatNumber: p!.vatNumber, legalId: p!.legalId });
  let accepted: { id: string; status: string | null };
  try {
    accepted = await platform.submit(
      {
        number: invoice.number!,
        typeCode: invoice.kind === 'credit_note' ? '381' : '380',
        issueDate: invoice.issueDate!,
        currency: invoice.currency,
        grandTotal: decimalIn(invoice.grandTotalCents, invoice.currency),
        seller: party(invoice.seller),
        buyer: party(invoice.buyer),
        fileName: `${invoice.number}.pdf`,
        pdf,
      },
      submission.id,
    );
  } catch (err) {
    const message = (err as Error).message.slice(0, EINVOICE_TEXT_LENGTH);
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
