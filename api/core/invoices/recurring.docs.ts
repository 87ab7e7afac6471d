import { prose } from '../../http/docs';
import { ROUNDING } from './invoices.docs';

/** The long OpenAPI texts of recurring.ts. */

export const createRecurringDocs = prose`
  A schedule that invoices a customer of the CRM (404 when the organisation has none) once per period from a
  template (lines as an invoice draft's; ${ROUNDING}). Period k runs on \`dayOfPeriod\` of the month \`startOn\`'s
  month + k months (monthly), 3k (quarterly) or 12k (yearly), the month's last day when shorter; the first period is
  the first such day on or after \`startOn\`. The hourly clock pass makes one invoice per period, exactly once (a
  unique (schedule, period) key written in the invoice's transaction) and catches up the periods it missed while
  down; each invoice's note names its period. \`autoIssue\` issues it (else a draft to review), \`autoSend\` mails
  it with its signed customer link. It ends after \`endOn\` or \`maxCount\` invoices. 400 for a \`startOn\` in the
  past, an \`endOn\` before the first period, or \`autoSend\` without \`autoIssue\`.
`;
