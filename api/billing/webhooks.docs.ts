/** Long descriptions of the routes of webhooks.ts (the OpenAPI text). */

/** POST /api/webhooks/stripe */
export const postWebhooksStripe = `Anonymous but signed: Stripe-Signature is verified on the raw body with STRIPE_WEBHOOK_SECRET. No signature header: a silent 200
(\`received: false\`), nothing stored. A bad signature: 403 \`signature_invalid\`. A valid event is stored by its id and applied by a worker
(checkout.session.completed, customer.subscription.created/updated/deleted, invoice.paid, invoice.payment_failed; other types are recorded and
ignored); the answer comes at once. Checkouts of invoices' payment links (metadata purpose invoice_payment: checkout.session.completed and
checkout.session.async_payment_succeeded, once paid) record the payment on the invoice, once per session (docs/accounting.md). A replayed id answers 200 (\`duplicate: true\`) and does nothing again, except for an event not yet
processed whose job failed for good (attempts exhausted): it is retried, and the answer is 200 without \`duplicate\`; an event is applied
once. An event older than the last one applied to a subscription never overwrites it; a subscription deleted (or ended) stays ended: a later
event about it, even of the same second, is recorded \`stale\` and changes nothing. Every applied event invalidates the organisation's cached
entitlements.
An organisation has one subscription: when a checkout completes while it has another live Stripe subscription, the newer one (the checkout
just completed) is kept and the other is cancelled at Stripe at once, its unused time credited to the customer's balance (prorated), which
pays the next invoices; events about a subscription that is not the organisation's current one never change its plan. A checkout's promotion
is counted unless it is used up or expired by then (the subscription stands, the redemption is not counted). Text PostgreSQL cannot store
(\\u0000 escapes, unpaired surrogates) is dropped, or replaced by U+FFFD, in the stored event rather than refusing it.`;
