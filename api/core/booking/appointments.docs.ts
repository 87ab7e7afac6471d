import { prose } from '../../http/docs';

/** Long descriptions of the appointment routes (api/core/booking/appointments.ts). */

export const listAppointmentsDoc = prose`
  Ordered by start time. Filters combine: from (start at or after), to (start before), staffId, customerId, status
  (comma-separated). Keyset pagination: pass nextCursor back with the same filters.
`;

export const bookAppointmentDoc = prose`
  Members may book at any time (working hours are the storefront's rule). The end and the blocked range follow
  from the service (duration, buffers). customerId names an existing customer; otherwise attendee's e-mail finds
  the customer with that primary e-mail or creates one. Overlapping blocked ranges of one staff member are refused
  by a PostgreSQL exclusion constraint: 409 \`slot_taken\`, whatever the concurrency.
`;

export const updateAppointmentDoc = prose`
  start, staffId or serviceId reschedule a booked or confirmed appointment (the blocked range is recomputed; 409
  \`slot_taken\` on overlap). The result follows the booking rules: 400 when the staff member does not perform the
  service or partySize exceeds its capacity. Status moves: booked -> confirmed | cancelled; confirmed -> completed
  | no_show | cancelled; cancelled, completed and no_show are final. Any other move: 409 \`invalid_transition\`.
`;

export const cancelAppointmentDoc = prose`
  The appointment is kept with status cancelled (its time becomes free); answers it. Cancelling a cancelled one
  changes nothing; a completed or no-show one: 409 \`invalid_transition\`.
`;
