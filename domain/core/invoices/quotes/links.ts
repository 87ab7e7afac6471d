import { createHmac } from 'node:crypto';
import { sameBytes } from '../../../../lib/tokens';
import type { Services } from '../../../services';

/**
 * The customer's signed link to a quote: `<quoteId>.<HMAC-SHA256(quoteId)>` with a secret derived from JWT_SECRET
 * for this purpose only (as the blog's and the calendar feed's links). No organisation id: the quote id names
 * the quote, the MAC proves the link was made by the suite. Valid as long as the quote exists.
 */
const sign = (services: Services, quoteId: string) =>
  createHmac('sha256', services.deriveSecret('quote-links')).update(quoteId).digest('base64url');

export const quoteToken = (services: Services, quoteId: string) => `${quoteId}.${sign(services, quoteId)}`;

/** The quote id of a valid token, or null. */
export function verifyQuoteToken(services: Services, token: string): string | null {
  const [id, mac, extra] = token.split('.');
  if (!id || !mac || extra !== undefined || !/^[0-9a-f-]{36}$/.test(id)) return null;
  return sameBytes(Buffer.from(sign(services, id)), Buffer.from(mac)) ? id : null;
}

const base = (services: Services) => (services.config.APP_URL || services.config.PUBLIC_URL).replace(/\/$/, '');

/** The page the customer opens (the public quote read) and the PDF link, both carrying the token. */
export const quoteLink = (services: Services, quoteId: string) =>
  `${base(services)}/api/public/quotes?token=${encodeURIComponent(quoteToken(services, quoteId))}`;
export const quotePdfLink = (services: Services, quoteId: string) =>
  `${base(services)}/api/public/quotes/pdf?token=${encodeURIComponent(quoteToken(services, quoteId))}`;
