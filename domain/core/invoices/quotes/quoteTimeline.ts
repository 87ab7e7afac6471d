import { registerTimelineProvider } from '../../crm/timeline';
import { invoiceToday } from '../lookup';
import { viewStatus } from './rules';
import { sentQuotesOfCustomer } from './store';

/** Quotes on the CRM timeline of their customer: at the time they were sent, type = their status (expired computed). */
registerTimelineProvider('quote', async (ctx, customerId, query) => {
  const today = invoiceToday();
  return (await sentQuotesOfCustomer(ctx.em, customerId, query)).map((q) => ({
    source: 'quote',
    id: q.id,
    at: q.sentAt!,
    type: viewStatus(q, today),
    title: `Devis ${q.number}`,
    summary: q.responderName ? `${q.status === 'accepted' ? 'Accepté' : 'Refusé'} par ${q.responderName}` : null,
    data: {
      number: q.number,
      status: viewStatus(q, today),
      grandTotalCents: q.grandTotalCents,
      validUntil: q.validUntil,
      respondedAt: q.respondedAt?.toISOString() ?? null,
      dealId: q.dealId,
      currency: q.currency,
    },
  }));
});
