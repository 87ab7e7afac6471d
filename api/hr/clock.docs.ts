import { prose } from '../http/docs';
import { MAX_MANUAL_AGE_DAYS } from '../../domain/hr/recordClockEvent';

/** The long OpenAPI texts of clock.ts (prose: wrapped here, one line in the document). */

export const punchDocs = prose`
  Records an entry (in) or exit (out) punch, immutable: the database refuses any UPDATE or DELETE of it; mistakes are
  fixed with corrections. The caller punches for their own employee record at the server's time (403
  \`no_employee_record\` without one). With hr.employees.manage, employeeId punches for another employee and \`at\`
  enters a forgotten punch up to ${MAX_MANUAL_AGE_DAYS} days back (source manual, note required), never for the caller's
  own record: a punch of their own more than a minute back is refused (403 \`own_clock_event\`, another manager must
  enter it), as leave refuses deciding one's own request. Consecutive punches of one kind are accepted; the timeline
  reports them (missing_exit / missing_entry).
`;

export const listClockEventsDocs = prose`
  In recording order; from/to filter the recorded time. Each event shows what was recorded, its effective punch
  (corrections applied in order, each field taking its latest value; null when voided) and the trail of corrections.
  Without hr.employees.manage only the caller's own.
`;

export const correctClockEventDocs = prose`
  Adds a correction (a new row; the event itself never changes): amend gives the effective time (within 7 days of the
  recorded one, not in the future) and/or kind, void cancels the punch. A reason is required; the author is the caller.
  Corrections apply in order: an amendment changes only the fields it gives (a kind-only one keeps an earlier corrected
  time), the latest void or amendment decides whether the punch stands; all stay in the trail. The days around it are
  scanned for compliance again. Answers the event with its trail. Nobody corrects their own clock event (403
  \`own_clock_event\`): another manager must correct it, as leave refuses deciding one's own request.
`;
