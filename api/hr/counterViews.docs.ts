import { prose } from '../http/docs';

/** The long OpenAPI texts of counterViews.ts and the counters route (prose: wrapped here, one line in the document). */

export const weekCountersDocs = prose`
  The closed weekly time counters of an employee (one per ISO week, oldest first): the clock's hourly
  \`hr-week-counters\` job closes each ISO week once it has ended in every time zone, from the effective punches
  (corrections applied) of the week's local days in the employee's time zone, against the schedule version of each
  day (public holidays excepted). Overtime is what passes 35 h: the first 8 hours at +25 %, beyond at +50 %; night
  (21:00 - 06:00 local) and Sunday minutes are flagged. A closed counter is immutable (the database refuses any
  change); weeks not closed yet are absent. At most 106 weeks at once (400). Members see only their own.
`;

export const replacementRestDocs = prose`
  The rest the week's overtime would earn as repos compensateur de remplacement (each minute with its increase:
  x 1.25, x 1.5), in minutes; 0 when the option is not in use
`;
