import { prose } from '../../http/docs';

/** Long descriptions of the storefront routes (api/core/booking/storefront.ts). */

export const storefrontDoc = prose`
  The public profile of a published business with its active services (and their groups) and its active staff's
  public names. No organisation id, no staff contact details.
`;

export const availabilityDoc = prose`
  Slots on a 15-minute grid where the service fits the staff member's working time (HR schedule and leave when
  linked to an employee, else their weekly hours), clear of appointments (with buffers) and busy events, no sooner
  than the minimum notice. Without staffId each slot lists every free staff member. \`from\` and \`to\` lie within
  years 1900 to 9998 (400 otherwise); \`to\` defaults to 7 days after \`from\` (the week a storefront shows; a
  month of a 20-person team is ~770 slots listing their staff, several hundred kB); at most 62 days.
`;

export const bookOnlineDoc = prose`
  start must be a slot the availability route offers (else 409 \`slot_taken\`); without staffId the first free
  staff member takes it. The customer is found by e-mail or created, in one transaction with the appointment and
  its confirmation mail: a refused booking (409) creates no customer. Answers a reference and the manage token
  (once; it is also mailed with the confirmation). Concurrent bookings of one slot: exactly one wins, the others
  get 409 \`slot_taken\`. Bookings made are limited per client address (RATE_LIMIT_BOOKINGS_PER_IP_HOUR), per
  attendee e-mail (RATE_LIMIT_BOOKINGS_PER_EMAIL_HOUR) and per store (RATE_LIMIT_BOOKINGS_PER_STORE_HOUR) an hour,
  across dynos; refused ones (4xx) do not count; over a limit 429 \`rate_limited\` with Retry-After (seconds until
  that counter resets). The confirmation mail counts toward its recipient's hourly cap
  (MAIL_RECIPIENT_CAP_PER_HOUR): past it the booking stands, unmailed, and the answer is the same.
`;

/** Said of every route by manage token. */
export const manageTokenDoc = prose`
  The manage token is a capability: whoever holds it (from the booking answer or the confirmation mail) may see,
  cancel or reschedule that one booking.
`;

export const cancelByTokenDoc = prose`
  ${manageTokenDoc} DELETE cancels (the booking is kept, cancelled; again: no change) and answers it. After its
  start: 409 \`booking_started\`; completed or no-show: 409 \`invalid_transition\`.
`;

export const rescheduleByTokenDoc = prose`
  ${manageTokenDoc} PATCH moves it to another free slot of the same service and staff member (404 when either is no
  longer offered; 409 \`slot_taken\` when not free; 409 \`booking_started\` after its start,
  \`invalid_transition\` when cancelled).
`;
