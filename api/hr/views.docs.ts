import { prose } from '../http/docs';

/** The long OpenAPI texts of views.ts (prose: wrapped here, one line in the document). */

export const leaveTypeCounting = prose`
  How days are counted, accrued and spent: ouvrables (Monday to Saturday, to the return) or ouvres (the half days
  worked)
`;

export const workTimeModeDocs = prose`
  How working time is counted: hours (overtime beyond 35 h a week, the maximum durations checked) or forfait_days
  (cadres au forfait jours, L3121-58: days worked against a yearly forfait, no overtime and no maximum durations,
  L3121-62; daily and weekly rest still checked). GET /api/rh/employees/{id}/forfait gives the year's count.
`;
