import { Invoice } from '../../../entities/core/invoice';
import { audit } from '../../platform/audit';
import type { TenantContext } from '../../context';
import { getCustomer } from '../crm/getCustomer';
import { draftFields, type DraftProps } from './draft';
import { readInvoiceSettings } from './settings';

/** Creates a draft invoice for a customer of the organisation (404 for an unknown customer). */
export async function createInvoice(ctx: TenantContext, props: DraftProps): Promise<Invoice> {
  await getCustomer(ctx, props.customerId);
  const { accountingCurrency } = await readInvoiceSettings(ctx.em, ctx.tenantId);
  const invoice = ctx.em.create(Invoice, {
    tenantId: ctx.tenantId,
    kind: 'invoice',
    status: 'draft',
    createdBy: ctx.userId,
    seller: null,
    buyer: null,
    creditedInvoiceId: null,
    creditReason: null,
    ...draftFields(props, accountingCurrency),
  });
  audit(ctx.em, {
    action: 'core.invoice.created',
    actorId: ctx.userId,
    tenantId: ctx.tenantId,
    targetType: 'invoice',
    targetId: invoice.id,
  });
  await ctx.em.flush();
  return invoice;
}
