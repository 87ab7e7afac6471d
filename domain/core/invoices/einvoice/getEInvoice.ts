import { EInvoiceEvent, EInvoiceSubmission } from '../../../../entities/core/einvoice';
import type { TenantContext } from '../../../context';
import { findInvoice } from '../lookup';

export interface EInvoiceState {
  invoiceId: string;
  submission: EInvoiceSubmission | null;
  history: EInvoiceEvent[];
}

/** The e-invoice state of a document: its submission (null before any) and its lifecycle history, oldest first. */
export async function getEInvoice(ctx: TenantContext, invoiceId: string): Promise<EInvoiceState> {
  await findInvoice(ctx.em, invoiceId);
  const submission = await ctx.em.findOne(EInvoiceSubmission, { invoiceId });
  const history = submission ? await ctx.em.find(EInvoiceEvent, { invoiceId }, { orderBy: { occurredAt: 'asc', id: 'asc' } }) : [];
  return { invoiceId, submission, history };
}
