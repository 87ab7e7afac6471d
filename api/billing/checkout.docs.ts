import { prose } from '../http/docs';

/** Long descriptions of the routes of checkout.ts (the OpenAPI text). */

/** What both checkouts do (line breaks kept as written). */
const checkoutDescription = `Stripe Checkout in subscription mode for a paid public tier, optional add-ons and an optional promotion code
(applied to the first invoice). The organisation's Stripe customer is created on first use and kept. The tenant id travels as
client_reference_id and in the session and subscription metadata; the subscription changes when Stripe's webhook reports the payment.
An organisation has one open checkout: opening one expires its previous one at Stripe (that page then says the session expired), so two
can never both be paid; when the previous one was paid already, the new one is expired too and the answer is 409 \`subscription_exists\`.`;

/** POST /api/checkout/session */
export const postCheckoutSession = `${checkoutDescription} Redirect the customer to \`url\`.`;

/** POST /api/checkout/embedded-session */
export const postCheckoutEmbeddedSession = `${checkoutDescription} Mount it with Stripe.js and \`clientSecret\`.`;

/** POST /api/checkout/portal */
export const postCheckoutPortal = prose`
  A Stripe billing portal session for the organisation's customer (payment methods, invoices, cancellation). Redirect
  the customer to \`url\`.
`;
