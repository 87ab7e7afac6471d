import { customerLinks } from '../customerLinks';

/** The customer's signed link to a quote (customerLinks.ts): read, PDF, accept, decline. */
const links = customerLinks('quote-links', '/api/public/quotes');
export const quoteToken = links.token;
/** The quote id of a valid token, or null. */
export const verifyQuoteToken = links.verify;
export const quoteLink = links.link;
export const quotePdfLink = links.pdfLink;
