import { createHmac } from 'node:crypto';
import { sameBytes } from '../../../lib/tokens';
import type { Services } from '../../services';

/**
 * The customer's signed links to a document (a quote, an invoice): `<document id>.<HMAC-SHA256(id)>` with a secret
 * derived from JWT_SECRET for that purpose only (as the blog's and the calendar feed's links). No organisation id:
 * the document id names it, the MAC proves the link was made by the suite. Valid as long as the document exists.
 */
export function customerLinks(purpose: 'quote-links' | 'invoice-links', path: string) {
  const sign = (services: Services, id: string) =>
    createHmac('sha256', services.deriveSecret(purpose)).update(id).digest('base64url');
  const token = (services: Services, id: string) => `${id}.${sign(services, id)}`;
  const base = (services: Services) => (services.config.APP_URL || services.config.PUBLIC_URL).replace(/\/$/, '');
  return {
    token,
    /** The document id of a valid token, or null. */
    verify(services: Services, value: string): string | null {
      const [id, mac, extra] = value.split('.');
      if (!id || !mac || extra !== undefined || !/^[0-9a-f-]{36}$/.test(id)) return null;
      return sameBytes(Buffer.from(sign(services, id)), Buffer.from(mac)) ? id : null;
    },
    /** The page the customer opens (the public read), carrying the token. */
    link: (services: Services, id: string) =>
      `${base(services)}${path}?token=${encodeURIComponent(token(services, id))}`,
    pdfLink: (services: Services, id: string) =>
      `${base(services)}${path}/pdf?token=${encodeURIComponent(token(services, id))}`,
    /** The invoice's payment link: opens (or reuses) its hosted payment page and redirects there. */
    payLink: (services: Services, id: string) =>
      `${base(services)}${path}/pay?token=${encodeURIComponent(token(services, id))}`,
  };
}

const invoiceLinks = customerLinks('invoice-links', '/api/public/invoices');
export const verifyInvoiceToken = invoiceLinks.verify;
export const invoiceLink = invoiceLinks.link;
export const invoicePdfLink = invoiceLinks.pdfLink;
export const invoicePayLink = invoiceLinks.payLink;
