import { prose } from '../http/docs';
import { CSV_FORMULA_NOTE } from '../../lib/csv';
import { MAX_SCAN_DAYS } from '../../domain/hr/scanCompliance';
import { MAX_TIMESHEET_DAYS, timesheetColumns } from '../../domain/hr/timesheetRows';

/** The long OpenAPI texts of compliance.ts (prose: wrapped here, one line in the document). */

export const ruleSetDocs = prose`
  The ComplianceRuleSet of the organisation: French working-time rules until edited (10 h a day, 48 h a week, 44 h
  average over 12 weeks, 11 h daily rest, 35 h weekly rest, a 20-minute break once a day reaches 6 h). Limits in
  minutes; null means the rule is off.
`;

export const updateRuleSetDocs = prose`
  Given fields replace the current values (null turns a rule off), absent ones are kept. Later scans apply it; alerts
  already raised stay.
`;

export const scanDocs = prose`
  Enqueues a scan (queue \`compliance\`) of the local days from..to (at most ${MAX_SCAN_DAYS}) for every employee
  employed during some day of the range (including those who have left since) or one. The clock scans the last 14 days
  every night, and a correction re-scans its weeks. Each breach raises one alert, however often it is scanned.
`;

export const timesheetDocs = prose`
  Work intervals of the local days from..to (at most ${MAX_TIMESHEET_DAYS}; each employee's zone), corrections applied,
  for one employee or all, streamed. One row per interval (start and end in local time with offset, minutes, whether a
  punch was corrected), plus a row per punch without its pair (anomaly missing_exit or missing_entry, end empty).
  format=csv (default; columns ${timesheetColumns.join(', ')}) or json ({ from, to, rows: [...] }, same fields).
  ${CSV_FORMULA_NOTE}
`;
