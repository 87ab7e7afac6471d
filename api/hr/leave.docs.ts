import { prose } from '../http/docs';

/** The long OpenAPI texts of leave.ts (prose: wrapped here, one line in the document). */

/** The life of a request, shown on each route that moves it. */
export const LEAVE_STATES = prose`
  States: pending (filed; its days held in the ledger, its half days taken) -> granted | refused | cancelled; granted ->
  cancelled; refused and cancelled are final and hold nothing (their half days are free, their days given back by one
  \`refusal_reversal\` or \`cancellation\` movement).
`;

/** The two countings of leave days, shown on the leave type routes. */
export const COUNTINGS = prose`
  counting: \`ouvrables\` counts every jour ouvrable (Monday to Saturday, public holidays and Sundays aside) from the
  first half day off the employee would have worked to the return, the first half day worked after the request (a week
  off Monday to Friday costs 6, a Friday 2, a Friday morning 0.5; a part-time employee spends as a full-time one);
  \`ouvres\` counts the half days the employee works (a week 5). Accrual is in the same counting; the last month of each
  reference year (May, the year starting 1 June) rounds what it earned up to a whole day, so 12 x 2.08 ouvrés make 25.
`;

export const leaveTypesDocs = prose`
  Every organisation has paid (congés payés: 2.5 jours ouvrables accrued a month and spent in jours ouvrables, five
  weeks a year), rtt, sick and unpaid (worked days); more can be added. Archived types are listed too (archivedAt).
  ${COUNTINGS}
`;

export const createLeaveTypeDocs = prose`
  409 \`leave_type_exists\` when the code is taken. Only a type with tracksBalance accrues or takes RTT (400). counting
  defaults to ouvrables for a type accruing more than 25 days a year (so paid leave gives five weeks, not six), else
  ouvres. ${COUNTINGS}
`;

export const updateLeaveTypeDocs = prose`
  Changes the given fields (the code stays): say the accrual and counting of the organisation's collective agreement.
  Changes apply from now on and never to the past: the next monthly accrual credits the new accrualDaysPerMonth,
  requests filed from now on count the new way; ledger movements and the days of requests already filed keep what they
  were, and a refusal or cancellation gives back what its request held. \`archived: true\` archives the type: no new
  request (409 \`leave_type_archived\`) nor accrual nor RTT, while its requests stay listed and can still be decided or
  cancelled, and its balance still shows (adjustments settle it); \`archived: false\` puts it back in use. Only a type
  with tracksBalance accrues or takes RTT (400). Another organisation's type: 404. Audited (\`hr.leave_type.updated\`,
  each change before and after).
`;

export const fileLeaveRequestDocs = prose`
  For the caller's own employee record, or any employee with hr.employees.manage. Days are counted by half day (morning
  before 13:00 local, afternoon after; startHalf afternoon / endHalf morning make half days) in the leave type's
  counting, from the schedule (Monday to Friday without one) minus public holidays. In jours ouvrés (\`ouvres\`) each
  half the request covers and the employee works counts 0.5, so a full day on a day with only a morning slot counts 0.5.
  In jours ouvrables (\`ouvrables\`, paid leave) every half of Monday to Saturday from the first half off the employee
  would have worked to the return counts 0.5: a week Monday to Friday costs 6 days (its Saturday), a Friday 2. A request
  that takes no half the employee works is 400 \`leave_covers_no_working_day\`. A type that tracks a balance holds the
  days in the ledger at once (409 \`insufficient_balance\` when short); a refusal gives them back. 409 \`leave_overlap\`
  when a pending or granted request shares a half day (refused by the database); 409 \`leave_type_archived\` for an
  archived type.
`;

export const listLeaveRequestsDocs = prose`
  Newest first; filters employeeId, status, leaveTypeId, from/to (dates the requests overlap). Without hr.leave.decide
  or hr.employees.manage only the caller's own.
`;

export const decideLeaveRequestDocs = prose`
  ${LEAVE_STATES} Pending requests only (409 \`leave_already_decided\`, a cancelled one included). Refusing needs a
  reason and writes a \`refusal_reversal\` movement giving the held days back; a granted request removes its days from
  the availability. Nobody decides their own request (403 \`own_request\`). A decision and a cancellation of one request
  are serialised: one wins. A request with an approval chain (approvalChain) is decided step by step: this decides the
  step it waits for when it is the caller's (403 \`not_current_approver\` otherwise), as
  POST /api/rh/leave-requests/{id}/approvals does.
`;

export const cancelLeaveRequestDocs = prose`
  ${LEAVE_STATES} As in comparable HR products (an employee withdraws a request, a manager recalls approved leave): the
  employee cancels their own pending request at any time, and their own granted request until its first day, in their
  time zone (from that day 409 \`leave_started\`: a manager recalls it). A holder of hr.leave.decide cancels any other
  employee's pending or granted request, one already started or taken included (a recall: the whole request is
  cancelled; the days actually taken are filed again). Refused or cancelled requests: 409 \`invalid_transition\`
  (cancelling twice gives nothing back twice). The request is kept with status \`cancelled\`, cancelledBy, cancelledAt
  and the optional reason; its half days are free again and, for a request that held days in the ledger, one
  \`cancellation\` movement gives back every day it held (whatever its type became since) (the ledger keeps at most one
  reversal per request). Audited \`hr.leave.cancelled\`; the hub hears \`leave.cancelled\`. Another employee's request
  without hr.leave.decide: 404.
`;

export const leaveBalanceDocs = prose`
  Per type that tracks a balance: the sum of the ledger (never a stored counter) and the days pending requests hold,
  with the latest movements. The caller's own, or any with hr.employees.manage.
`;

export const adjustLeaveBalanceDocs = prose`
  A manual correction (a balance carried over at hire, a settlement): appends one \`adjustment\` movement with its
  reason and author to the ledger; earlier movements never change. A debit may not take the balance below zero (409
  \`insufficient_balance\`); the type must keep a balance (409 \`leave_type_untracked\`); nobody adjusts their own
  balance (403 \`own_balance\`).
`;

export const generateRttDocs = prose`
  Enqueues the RTT generation of the month (default the previous one) for every employee: each ISO week starting in the
  month whose worked hours pass 35 h earns (hours - 35) / 7 days. Worked hours are the scheduled ones on the days the
  employee is at work: not on French public holidays, not before the hire date or after the last day, and not in the
  half days taken by leave granted when the generation runs (absences earn no RTT). The total is credited to the
  organisation's rtt type (the first by code, not archived) as one \`rtt_generation\` movement per employee and month.
  Idempotent: generating a month again credits nothing twice. The clock runs it for every organisation in the first hour
  after a month ends (and catches up the last three ended months).
`;
