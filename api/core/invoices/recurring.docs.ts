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

export const patchRecurringDocs = prose`
  Changes the fields named (null clears \`endOn\`, \`maxCount\`, \`dueDays\`, \`paymentTerms\`, \`note\`), under the
  schedule's row lock, which the clock's pass also takes to invoice a period: an edit and an issue at the same time
  run one after the other, and each period is still invoiced once (the unique (schedule, period) key). Periods
  already invoiced never change, nor their invoices or drafts; the template, customer and options apply from the
  next invoice. A new \`interval\` or \`dayOfPeriod\` applies from the first day no invoiced period covers (the day
  after the latest one's end; \`startOn\` when none), today at the earliest: the next run is the new rule's first day
  on or after it (the days in between are not invoiced: no proration). \`startOn\` changes only while no period is
  invoiced (409 \`recurring_invoice_started\`). An \`endOn\` or \`maxCount\` that excludes the next period ends the
  schedule; 400 for one before the latest invoiced period or below the invoices made. \`status\` \`paused\` pauses,
  \`active\` resumes as POST .../resume (past the periods of the pause; past its end it ends). An ended schedule is
  final: 409 \`recurring_invoice_ended\`.
`;
