import { CONFIRMATION_RESEND_HOURS } from '../../domain/knowledge/subscriptions';
import { prose } from '../http/docs';

/** The long descriptions of public.ts's routes (see api/http/docs.ts). */

export const directoryPublicSpaces = prose`
  Public knowledge bases and blogs of every organisation the surface serves (never internal spaces, nor those of an
  organisation that is suspended or not entitled to knowledge), in slug order. Pages by cursor: \`nextCursor\` is the
  slug of the last space of the page; a page may rarely hold fewer than \`limit\` spaces, only a null \`nextCursor\`
  ends the list.
`;

export const publicSpace = prose`
  An internal or unknown slug is a 404, as is every space of an organisation that is suspended or not entitled to
  knowledge (on every route of this surface).
`;

export const publishedArticle = prose`
  The rendered, sanitised HTML (stored with each version) beside the source (Markdown or editor document). Drafts,
  reviews and archived articles are 404. The ETag names the article's state, so a matching If-None-Match is a 304
  without a body. Counts a view (Redis, flushed to the space analytics).
`;

export const searchPublicSpace = prose`
  Full-text search (ranked, typo-tolerant on titles) over its published articles only. A search that finds nothing is
  counted in the space analytics.
`;

export const subscribeBlog = prose`
  Double opt-in: a confirmation mail (through the mail queue) whose link confirms. Always 202 with the same body,
  whether the address was new, pending or already confirmed (nobody learns who subscribed). A pending address is mailed
  again only once its last confirmation is ${CONFIRMATION_RESEND_HOURS} hours old, and the mail counts toward its
  recipient's hourly cap (MAIL_RECIPIENT_CAP_PER_HOUR). Limited per client address
  (RATE_LIMIT_SUBSCRIPTIONS_PER_IP_HOUR), per subscribed address (RATE_LIMIT_SUBSCRIPTIONS_PER_EMAIL_HOUR) and per blog
  (RATE_LIMIT_SUBSCRIPTIONS_PER_SPACE_HOUR) an hour; refused requests do not count; over a limit 429 \`rate_limited\`
  with Retry-After. Only blog spaces (404 otherwise).
`;
