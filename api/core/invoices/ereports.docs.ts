import { prose } from '../../http/docs';

/** The long OpenAPI texts of ereports.ts (French e-reporting). */

export const listEReportsDocs = prose`
  The organisation's e-reports, newest first: one per closed reporting period and kind (transactions: B2C and
  international sales; payments: what was collected on services invoices), built by the clock once the period has
  closed, then the period's rectifying reports (sequence 1, 2 ...) for what was dated in it but issued or recorded
  after it was reported. Filter by kind, state and period (periods overlapping periodFrom..periodTo). The lines of
  a report are read with GET /api/invoices/ereports/{id}.
`;

export const resendEReportDocs = prose`
  Sends the report to the platform again: a new attempt by its own job, with the same Idempotency-Key (the report
  id), so the platform keeps one report however often it is sent. 202 with the report, now queued; 409
  \`ereport_queued\` while it is being sent (its job retries with backoff until the platform answers).
`;

export const ereportingSettingsDocs = prose`
  The VAT regime sets the e-reporting periods: real_monthly (réel normal with monthly VAT returns, the default:
  decades, days 1-10, 11-20 and 21 to the month's end), real_quarterly (réel normal with quarterly returns: calendar
  months), simplified (régime simplifié: two calendar months, January-February ...). Reported periods keep theirs; a
  change applies from the day after the last reported period.
`;
