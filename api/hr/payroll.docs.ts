import { CSV_FORMULA_NOTE } from '../../lib/csv';
import { prose } from '../http/docs';

/** The long OpenAPI texts of the payroll routes (prose: wrapped here, one line in the document). */

export const payrollCodesDocs = prose`
  The organisation's mapping of payroll variables to its payroll software's codes: hours worked, overtime at the
  first (+25 %) and second (+50 %) rate, night and Sunday hours, and per leave type the absence days, absence
  hours and the balance at the month's end. A variable without a code is not exported. Nothing is mapped until
  first edited.
`;

export const updatePayrollCodesDocs = prose`
  Replaces the whole mapping (what is absent is not mapped). Codes are 1-20 letters, digits, "_", "." or "-"; a
  code may name one variable only, a leave type may be mapped once and must be one of the organisation's (400
  naming each field). Audited (\`hr.payroll_codes.updated\`). A month already closed keeps the mapping it was
  closed with: its export does not change.
`;

export const closeMonthDocs = prose`
  Closes the payroll month for the organisation: first the ISO weeks it overlaps (each week's counters, as the
  clock's job closes them; a week closed already keeps its counters), then one summary per employee working in
  the month is frozen with the code mapping as it is now: hours worked, night and Sunday hours, overtime at each
  rate (a week straddling two months split by day), absences by leave type in days and hours, leave balances at
  the month's end. The closed month and its summaries are immutable (the database refuses any change). 409
  \`month_not_ended\` before the month's last week has ended everywhere (the Monday after it, 12:00 UTC), 409
  \`month_already_closed\` once closed (two closes at once: one closes, the other gets 409). Audited
  (\`hr.payroll.month_closed\`).
`;

export const exportMonthDocs = prose`
  The payroll variables of a closed month, from its frozen summaries and the code mapping frozen at closing, so
  exporting again gives the same bytes. CSV (default): one line per employee and mapped variable (columns month,
  employeeId, lastName, firstName, variable, leaveType, code, value, unit), separated by ";" with a decimal comma
  (what French payroll software and a French spreadsheet read), by last name; a mapped variable is given even
  when 0. ${CSV_FORMULA_NOTE} format=json: the summaries with their variables (values as numbers). 409
  \`month_not_closed\` before the month is closed.
`;
