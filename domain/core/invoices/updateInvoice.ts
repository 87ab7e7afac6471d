import type { Invoice } from '../../../entities/core/invoice';
import { audit } from '../../platform/audit';
import type { TenantContext } from '../../context';
import { getCustomer } from '../crm/getCustomer';
import { draftFields, type DraftProps } from './draft';
import { notDraft } from './lookup';
import { findInvoice } from './store';
import { readInvoiceSettings } from './settings';

/** Replaces a draft (PUT): 409 invoice_not_draft once issued. The row lock orders it against a concurrent issue. */
export async function updateInvoice(ctx: TenantContext, id: string, props: DraftProps): Promise<Invoice> {
  const fields = draftFields(props, (await readInvoiceSettings(ctx.em, ctx.tenantId)).accountingCurrency);
  return ctx.em.transactional(async (em) => {
    const invoice = await findInvoice(em, id, { lock: true });
    if (invoice.status !== 'draft') throw notDraft(invoice);
    if (props.customerId !== invoice.customerId) await getCustomer({ ...ctx, em }, props.customerId);
    em.assign(invoice, fields);
    audit(em, {
      action: 'core.invoice.updated',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'invoice',
      targetId: invoice.id,
    });
    return invoice;
  });
}
