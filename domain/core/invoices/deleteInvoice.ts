import { audit } from '../../platform/audit';
import type { TenantContext } from '../../context';
import { notDraft } from './lookup';
import { findInvoice } from './store';

/** Deletes a draft; an issued document is kept forever (409 invoice_not_draft; the database refuses it too). */
export async function deleteInvoice(ctx: TenantContext, id: string): Promise<void> {
  await ctx.em.transactional(async (em) => {
    const invoice = await findInvoice(em, id, { lock: true });
    if (invoice.status !== 'draft') throw notDraft(invoice);
    em.remove(invoice);
    audit(em, {
      action: 'core.invoice.deleted',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'invoice',
      targetId: invoice.id,
    });
  });
}
