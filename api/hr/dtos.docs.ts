import { prose } from '../http/docs';

/** The long OpenAPI texts of dtos.ts (prose: wrapped here, one line in the document). */

/** How a leave type counts days (the counting field of its bodies). */
export const COUNTING = prose`
  How the type counts days, accrued and spent alike: ouvrables (Monday to Saturday, 30 a year at 2.5 a month: every jour
  ouvrable from the first day off to the return, so a week off costs 6) or ouvres (the half days the employee works, 25
  a year at 2.08 a month)
`;

export const provisionEmployeeCandidateId = prose`
  The recruitment module's candidate id; provisioning the same candidate again returns the same employee
`;

export const createLeaveTypeAccrualDaysPerMonth = prose`
  Days credited each month by the accrual job, in the type's counting (default 0; more than 0 needs tracksBalance)
`;

export const updateLeaveTypeArchived = prose`
  true archives the type (no new request nor accrual; its history and balances stay), false puts it back in use
`;
