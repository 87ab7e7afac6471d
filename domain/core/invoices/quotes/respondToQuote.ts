import { LockMode } from '@mikro-orm/core';
import { Quote } from '../../../../entities/core/quote';
import { QUOTE_TEXT_LENGTHS } from '../../../../entities/core/quote';
import { notFound } from '../../../../lib/errors';
import { audit } from '../../../platform/audit';
import type { Services } from '../../../services';
import { invoiceToday } from '../lookup';
import { verifyQuoteToken } from './links';
import { checkAnswerable } from './rules';

export interface QuoteAnswer {
  answer: 'accepted' | 'declined';
  /** The name the customer typed. */
  name: string;
  reason?: string;
  ip: string | null;
  userAgent: string | null;
}

/**
 * The customer accepts or declines a sent quote through its signed link (404 for a bad token). Under the quote's
 * row lock: of two answers at once, the first wins and the second sees it answered (409 quote_already_answered);
 * the trigger inv_quotes_guard refuses any later change. 409 quote_expired past the validity date, quote_not_sent.
 * Records the name typed, the instant, the IP address and the user agent.
 */
export async function respondToQuote(services: Services, token: string, props: QuoteAnswer): Promise<Quote> {
  const id = verifyQuoteToken(services, token);
  if (!id) throw notFound('Quote');
  return services.orm.em.fork().transactional(async (em) => {
    const quote = await em.findOne(Quote, { id }, { filters: false, lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!quote) throw notFound('Quote');
    checkAnswerable(quote, invoiceToday());
    em.assign(quote, {
      status: props.answer,
      respondedAt: new Date(),
      responderName: props.name.trim(),
      responderIp: props.ip?.slice(0, QUOTE_TEXT_LENGTHS.ip) ?? null,
      responderUserAgent: props.userAgent?.slice(0, QUOTE_TEXT_LENGTHS.userAgent) ?? null,
      declineReason: props.answer === 'declined' ? props.reason?.trim() || null : null,
    });
    audit(em, {
      action: `core.quote.${props.answer}`,
      actorId: null,
      tenantId: quote.tenantId,
      targetType: 'quote',
      targetId: quote.id,
      data: { number: quote.number, name: props.name.trim() },
    });
    return quote;
  });
}
