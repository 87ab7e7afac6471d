import type { EInvoiceEvent, EInvoiceSubmission } from '../../../../entities/core/einvoice';
import type { Lean } from '../../../../lib/lean';
import type { TenantContext } from '../../../context';
import { invoiceExists, submissionHistoryOf, submissionOf } from '../store';

export interface EInvoiceState {
  invoiceId: string;
  submission: Lean<EInvoiceSubmission> | null;
  history: Lean<EInvoiceEvent>[];
}

/** The e-invoice state of a document: its submission (null before any) and its lifecycle history, oldest first. */
export async function getEInvoice(ctx: TenantContext, invoiceId: string): Promise<EInvoiceState> {
  // In parallel: an unknown id (or not a UUID, answered without a query) is still a 404.
  const [, submission] = await Promise.all([
    invoiceExists.byId('Invoice', ctx, invoiceId),
    submissionOf.one(ctx, invoiceId),
  ]);
  const history = submission ? await submissionHistoryOf.all(ctx, invoiceId) : [];
  return { invoiceId, submission, history };
}
