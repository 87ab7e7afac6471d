import { prose } from '../../http/docs';

/** Long descriptions of the waitlist routes (api/core/booking/waitlist.ts). */

export const joinWaitlistDoc = prose`
  Joins the waitlist of a full day of an active service: \`day\` (YYYY-MM-DD in the business's time zone) is today
  or later and within the service's booking horizon (400 on \`day\` otherwise), and has no free slot left (409
  \`slots_available\`: book one instead). One live place per service, day and address (409 \`already_waiting\`).
  The address is mailed a leave link (the only copy of its token; it counts toward the recipient's hourly cap,
  MAIL_RECIPIENT_CAP_PER_HOUR, as a booking's confirmation does). When a slot of that day frees up (a cancellation,
  a reschedule, a hold released), the first in line (first joined first) is mailed a link holding it for
  BOOKING_WAITLIST_HOLD_MINUTES; unclaimed or declined, the next in line is offered it; nothing is offered once the
  day has passed. Joins made are limited per client address (RATE_LIMIT_WAITLIST_PER_IP_HOUR), per e-mail
  (RATE_LIMIT_WAITLIST_PER_EMAIL_HOUR) and per store (RATE_LIMIT_WAITLIST_PER_STORE_HOUR) an hour; refused ones
  (4xx) do not count; over a limit 429 \`rate_limited\` with Retry-After.
`;

export const waitlistPlaceDoc = prose`
  The leave token (mailed when joining) is a capability: whoever holds it may see that one place or leave it.
`;

export const leaveWaitlistDoc = prose`
  ${waitlistPlaceDoc} DELETE leaves the waitlist (\`left\`); a slot held for the place is released to the next in
  line. A place that already ended is answered unchanged.
`;

export const waitlistHoldDoc = prose`
  The hold token (mailed with the offer) is a capability: whoever holds it may see, claim or decline that one
  held slot, without an account. GET changes nothing (mail scanners fetch links).
`;

export const claimHoldDoc = prose`
  ${waitlistHoldDoc} Claiming books the held slot: the appointment becomes \`booked\` for the visitor (customer found
  by e-mail or created), with a manage token (answered once and mailed with the confirmation, as an online booking).
  409 \`hold_claimed\` when claimed already; 409 \`hold_expired\` once the hold ended (past its expiry, declined, left,
  or released by the business).
`;

export const declineHoldDoc = prose`
  ${waitlistHoldDoc} Declining releases the slot at once to the next in line (\`declined\`; again: no change).
  409 \`hold_claimed\` when claimed; 409 \`hold_expired\` when it ended otherwise.
`;

export const listWaitlistDoc = prose`
  A service's waitlist, by day then queue order (first joined first), every status unless \`status\` is given; at
  most \`limit\` places. 404 for an unknown service or another organisation's.
`;
