import { EInvoiceEvent, EInvoiceSubmission } from '../../../../entities/core/einvoice';
import { Invoice } from '../../../../entities/core/invoice';
import { lean, type Lean } from '../../../../lib/lean';
import type { TenantContext } from '../../../context';

export interface EInvoiceState {
  invoiceId: string;
  submission: Lean<EInvoiceSubmission> | null;
  history: Lean<EInvoiceEvent>[];
}

// Lean statements (docs/database-path.md). Submitting reads the state after its transaction, so these see it.
const invoiceExists = lean(Invoice, { columns: ['id'], where: 'id = $1' });
const submissionOf = lean(EInvoiceSubmission, { where: 'invoice_id = $1' });
const historyOf = lean(EInvoiceEvent, { where: 'invoice_id = $1', orderBy: 'occurred_at asc, id asc' });

/** The e-invoice state of a document: its submission (null before any) and its lifecycle history, oldest first. */
export async function getEInvoice(ctx: TenantContext, invoiceId: string): Promise<EInvoiceState> {
  // In parallel: an unknown id (or not a UUID, answered without a query) is still a 404.
  const [, submission] = await Promise.all([invoiceExists.byId('Invoice', ctx, invoiceId), submissionOf.one(ctx, invoiceId)]);
  const history = submission ? await historyOf.all(ctx, invoiceId) : [];
  return { invoiceId, submission, history };
}
