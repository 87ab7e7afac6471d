import { prose } from '../../http/docs';

/** Long descriptions of the visitor sign-in routes (api/core/booking/visitorAuth.ts). */

export const requestLinkDoc = prose`
  Always 202 \`{ status: "sign_in_link_sent" }\` for a published store, whatever the address: the link only shows
  bookings made with that address, so nothing can be learnt from the answer. The link (booking_sign_in mail) works
  once, for 15 minutes; only its SHA-256 is stored. POST because it sends mail. Rate limited per IP
  (RATE_LIMIT_ANON_PER_MINUTE) and per address (RATE_LIMIT_AUTH_PER_MINUTE per 10 minutes). At most
  MAIL_RECIPIENT_CAP_PER_HOUR mails anyone can cause reach one address an hour: past it no link is mailed, the
  answer unchanged. Unknown or unpublished store: 404.
`;

export const verifyLinkDoc = prose`
  With the token of the mailed link. POST, not GET: verifying consumes the link, and mail scanners fetch the
  addresses they see (the front-end page the link opens posts the token). The link is claimed by one conditional
  UPDATE, so it works exactly once even under concurrent calls; unknown, expired or used: 401
  \`visitor_link_invalid\`. Answers a session token (30 days; given once, stored hashed) for that store only. Rate
  limited per IP.
`;

export const visitorMeDoc = prose`
  With \`Authorization: Bearer <sessionToken>\` from verify: the visitor's address, the store and the bookings
  made there with that address (public facts only). Missing, unknown or expired session, or a store no longer
  published: 401 \`visitor_session_invalid\`.
`;
