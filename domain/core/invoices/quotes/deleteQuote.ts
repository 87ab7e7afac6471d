import { audit } from '../../../platform/audit';
import type { TenantContext } from '../../../context';
import { findQuote } from './store';
import { quoteNotDraft } from './updateQuote';

/** Deletes a draft quote; a sent one is kept forever (409 quote_not_draft; the trigger inv_quotes_guard refuses it too). */
export async function deleteQuote(ctx: TenantContext, id: string): Promise<void> {
  await ctx.em.transactional(async (em) => {
    const quote = await findQuote(em, id, { lock: true });
    if (quote.status !== 'draft') throw quoteNotDraft(quote);
    em.remove(quote);
    audit(em, {
      action: 'core.quote.deleted',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'quote',
      targetId: quote.id,
    });
  });
}
