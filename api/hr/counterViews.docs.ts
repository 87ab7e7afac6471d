import { prose } from '../http/docs';

/** The long OpenAPI texts of counterViews.ts and the counters route (prose: wrapped here, one line in the document). */

export const weekCountersDocs = prose`
  The closed weekly time counters of an employee (one per ISO week, oldest first): the clock's hourly
  \`hr-week-counters\` job closes each ISO week once it has ended in every time zone, from the effective punches
  (corrections applied) of the week's local days in the employee's time zone, against the schedule version of each
  day (public holidays excepted). Overtime is what passes 35 h: the first 8 hours at +25 %, beyond at +50 %, or the
  tiers and rates of the organisation's agreement (GET /api/rh/settings); none au forfait jours. Night
  (21:00 - 06:00 local) and Sunday minutes are flagged. A closed counter is immutable (the database refuses any
  change); weeks not closed yet are absent. At most 106 weeks at once (400). Members see only their own.
`;

export const replacementRestDocs = prose`
  The rest the week's overtime would earn as repos compensateur de remplacement (each minute with its increase:
  x 1.25, x 1.5), in minutes; 0 when the option is not in use
`;

export const forfaitYearDocs = prose`
  The year of an employee au forfait jours (workTimeMode forfait_days): the forfait (the employee's, else the
  organisation's from GET /api/rh/settings; pro rata of the workable days employed for a year begun or ended
  mid-way, to the half day), the days worked from the effective punches (corrections applied; a day with less than
  4 h counts as a half day), what remains, month by month, and the rest days the forfait leaves (workable days:
  Monday to Friday of the employment less public holidays, less 25 days of paid leave pro rata, less the forfait).
  What the annual interview on workload (L3121-65) and payroll read. Closing a week raises a \`forfait_days\`
  compliance alert once the days worked pass the forfait. 409 \`not_forfait_days\` for an employee counted in
  hours. Members see only their own.
`;
