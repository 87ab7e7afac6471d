import { Quote } from '../../../../entities/core/quote';
import { conflict } from '../../../../lib/errors';
import { audit } from '../../../platform/audit';
import type { TenantContext } from '../../../context';
import { getCustomer } from '../../crm/getCustomer';
import { getDeal } from '../../crm/getDeal';
import { quoteDraftFields, type QuoteDraftProps } from './draft';
import { invalidField } from '../../../../lib/errors';
import { checkDocumentCurrency } from '../currencies';
import { readInvoiceSettings } from '../settings';

export interface CreateQuoteProps extends QuoteDraftProps {
  /** A customer of the CRM; or the deal's customer with dealId. */
  customerId?: string;
  /** A won deal of the CRM the quote is made for. */
  dealId?: string;
}

/**
 * Creates a draft quote for a customer (404 for an unknown one), or for a won deal (its customer; 404 unknown
 * deal, 409 deal_not_won for an open or lost one, 400 when customerId names another customer).
 */
export async function createQuote(ctx: TenantContext, props: CreateQuoteProps): Promise<Quote> {
  let customerId = props.customerId;
  let currency = props.currency;
  if (props.dealId) {
    const { deal } = await getDeal(ctx, props.dealId);
    currency ??= deal.currency;
    if (deal.status !== 'won') throw conflict('deal_not_won', 'Only a won deal produces a quote');
    if (customerId && customerId !== deal.customerId)
      throw invalidField('customerId', "customerId must be the deal's customer (or be left out)");
    customerId = deal.customerId;
  }
  if (!customerId) throw invalidField('customerId', 'customerId or dealId is required');
  await getCustomer(ctx, customerId);
  currency = checkDocumentCurrency(currency ?? (await readInvoiceSettings(ctx.em, ctx.tenantId)).accountingCurrency);
  const quote = ctx.em.create(Quote, {
    tenantId: ctx.tenantId,
    status: 'draft',
    customerId,
    dealId: props.dealId ?? null,
    createdBy: ctx.userId,
    seller: null,
    buyer: null,
    ...quoteDraftFields(props),
    currency,
  });
  audit(ctx.em, {
    action: 'core.quote.created',
    actorId: ctx.userId,
    tenantId: ctx.tenantId,
    targetType: 'quote',
    targetId: quote.id,
  });
  await ctx.em.flush();
  return quote;
}
