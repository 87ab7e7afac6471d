import { UnrecoverableError } from 'bullmq';
import { EINVOICE_TEXT_LENGTH, EInvoiceSubmission } from '../../../../entities/core/einvoice';
import { einvoicePlatform, PlatformError, type EInvoiceSyntax } from '../../../../lib/einvoice';
import type { Em } from '../../../../lib/db';
import { issuedDocument } from '../documents';
import { renderFacturX } from '../facturx';
import { renderUbl } from '../ubl';
import { tenantContext } from '../../../context';
import type { Services } from '../../../services';
import { decimalIn } from '../currencies';
import { getInvoicePdf } from '../getInvoicePdf';
import { moveTo } from './moveTo';

/** The document in the syntax the platform takes (EINVOICE_PLATFORM_FORMAT), rendered from the immutable invoice. */
async function documentIn(em: Em, invoiceId: string, syntax: EInvoiceSyntax) {
  if (syntax === 'factur-x') {
    const { invoice, pdf } = await getInvoicePdf(em, invoiceId);
    return { invoice, document: pdf, mimeType: 'application/pdf' as const, fileName: `${invoice.number}.pdf` };
  }
  const { invoice, credited } = await issuedDocument(em, invoiceId);
  const xml = syntax === 'ubl' ? renderUbl(invoice, credited) : renderFacturX(invoice, credited);
  return {
    invoice,
    document: Buffer.from(xml, 'utf8'),
    mimeType: 'application/xml' as const,
    fileName: `${invoice.number}.${syntax}.xml`,
  };
}

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

  const syntax = services.config.EINVOICE_PLATFORM_FORMAT as EInvoiceSyntax;
  const { invoice, document, mimeType, fileName } = await documentIn(ctx.em, invoiceId, syntax);
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
        fileName,
        syntax,
        mimeType,
        document,
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
