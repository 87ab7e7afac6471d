import { prose } from '../http/docs';
import { FIRST_DATE, LAST_DATE } from '../../lib/calendar';
import { MAX_AVAILABILITY_DAYS } from '../../domain/hr/availability';

/** The long OpenAPI texts of employees.ts (prose: wrapped here, one line in the document). */

/** What a member without hr.employees.manage sees, said on each employee read. */
export const SELF = prose`
  Members without hr.employees.manage see only their own employee record (another one answers 404; 403
  \`no_employee_record\` when their account has none).
`;

export const createEmployeeDocs = prose`
  userId links a member's account (400 unless a member; 409 \`user_already_employee\` when already linked).
`;

export const updateEmployeeDocs = prose`
  Changes the given fields; null clears an optional one. \`endDate\`, the last day of work (a date in the employee's
  time zone), ends the employment: the status is \`left\` from the next local day (at once for a past date; a job flips
  a future one within the hour after it passes), punches after it are refused (400), monthly leave accrues up to its
  month and availability ends with it. Clearing it, or moving it into the future, makes the employee \`active\` again.
  400 when the last day is before \`hireDate\`, or for a timeZone that is not an IANA name PostgreSQL knows too (e.g.
  the retired US/Pacific-New). The linked account (\`userId\`) is not edited here. Audited (\`hr.employee.updated\`).
`;

export const setScheduleDocs = prose`
  Adds a schedule version applying from effectiveFrom (local date) until the next version; earlier versions keep their
  dates. A version with the same effectiveFrom is replaced (200 instead of 201). Slots are local times of the schedule's
  zone (default the employee's); slots of one day may not overlap.
`;

export const availabilityDocs = prose`
  Working intervals (UTC) between from and to (at most ${MAX_AVAILABILITY_DAYS} days): the schedule in force each local
  day, minus French public holidays, minus granted leave (half days split at 13:00 local), nothing before the hire date.
  Pending leave does not remove time. from and to lie in years ${FIRST_DATE.slice(0, 4)} to ${LAST_DATE.slice(0, 4)}.
  ${SELF} Read by the appointments module for a whole team at once (domain function employeesAvailability).
`;

export const publicHolidaysDocs = prose`
  The eleven jours fériés, Easter-based ones (Easter Monday, Ascension, Whit Monday) computed for the year. They are not
  working days for availability and leave counts.
`;

export const provisionEmployeeDocs = prose`
  Called by the recruitment module when a candidate is hired. Idempotent on candidateId: the same candidate again
  answers 200 with the employee made the first time. An identity account with the e-mail is linked (no second profile is
  ever made); otherwise the employee gets a provisional userId (userProvisional true). X-Internal-Secret must equal
  INTERNAL_SECRET; with none configured every call is refused (fail-closed). 404 for an unknown organisation.
`;
