import { stringify } from 'csv-stringify';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { csvExportOptions } from '../../lib/csv';
import type { ModuleMount } from '../http/mount';
import { accepted } from '../http/routes';
import { IdParams } from '../http/dtos';
import { acknowledgeAlert } from '../../domain/hr/acknowledgeAlert';
import { getComplianceRules } from '../../domain/hr/getComplianceRules';
import { listComplianceAlerts } from '../../domain/hr/listComplianceAlerts';
import { requestComplianceScan } from '../../domain/hr/requestComplianceScan';
import { checkTimesheetRequest, timesheetColumns, timesheetRows } from '../../domain/hr/timesheetRows';
import { updateComplianceRules } from '../../domain/hr/updateComplianceRules';
import { AcknowledgeBody, ComplianceRulesBody, ComplianceScanBody, ListAlertsQuery, TimesheetQuery } from './dtos';
import {
  ComplianceAlertPageView,
  ComplianceAlertView,
  ComplianceRulesView,
  ScanJobView,
  timesheetJsonSchema,
} from './complianceViews';
import { ruleSetDocs, scanDocs, timesheetDocs, updateRuleSetDocs } from './compliance.docs';

/** The ComplianceRuleSet, scans and alerts, and the timesheet export. */
export function complianceRoutes({ routes }: ModuleMount): void {
  const r = routes('HR compliance');
  const gate = { access: 'user', module: 'rh', permission: 'hr.compliance.manage' } as const;

  r.get(
    '/api/rh/compliance/rules',
    { ...gate, summary: 'The compliance rule set', description: ruleSetDocs, response: ComplianceRulesView },
    async ({ ctx }) => ComplianceRulesView.from(await getComplianceRules(ctx)),
  );

  r.put(
    '/api/rh/compliance/rules',
    {
      ...gate,
      summary: 'Edit the compliance rule set',
      description: updateRuleSetDocs,
      body: ComplianceRulesBody,
      response: ComplianceRulesView,
    },
    async ({ ctx, body }) => ComplianceRulesView.from(await updateComplianceRules(ctx, body)),
  );

  r.post(
    '/api/rh/compliance/scan',
    {
      ...gate,
      summary: 'Scan for compliance breaches now',
      description: scanDocs,
      body: ComplianceScanBody,
      response: ScanJobView,
      status: 202,
      errors: { 404: 'Unknown employeeId' },
    },
    async ({ ctx, body }) => accepted(await requestComplianceScan(ctx, body)),
  );

  r.get(
    '/api/rh/compliance/alerts',
    {
      ...gate,
      summary: 'Compliance alerts',
      description:
        'Newest first; filters employeeId, rule, acknowledged and resolved (true / false). An alert resolves itself when a later scan of its period (a correction rescans the days around it) no longer finds the breach, and stands again if it is found once more.',
      query: ListAlertsQuery,
      response: ComplianceAlertPageView,
    },
    async ({ ctx, query }) => {
      const flag = (v: 'true' | 'false' | undefined) => (v === undefined ? undefined : v === 'true');
      return ComplianceAlertPageView.from(
        await listComplianceAlerts(ctx, {
          ...query,
          acknowledged: flag(query.acknowledged),
          resolved: flag(query.resolved),
        }),
      );
    },
  );

  r.patch(
    '/api/rh/compliance/alerts/:id/acknowledge',
    {
      ...gate,
      summary: 'Acknowledge an alert',
      description: 'Records who acknowledged it, when, and an optional note. Acknowledging again changes nothing.',
      params: IdParams,
      body: AcknowledgeBody,
      response: ComplianceAlertView,
    },
    async ({ ctx, params, body }) => ComplianceAlertView.from(await acknowledgeAlert(ctx, params.id, body.note)),
  );

  r.get(
    '/api/rh/exports/timesheet',
    {
      ...gate,
      summary: 'Timesheet export',
      description: timesheetDocs,
      query: TimesheetQuery,
      errors: { 404: 'Unknown employeeId' },
      response: {
        description: 'The timesheet (CSV, or JSON with format=json)',
        content: { 'text/csv': { type: 'string' }, 'application/json': timesheetJsonSchema },
      },
    },
    async ({ ctx, query, res }) => {
      await checkTimesheetRequest(ctx, query);
      // The first rows are read before answering, so a failure there is still a problem answer, not a cut stream.
      const source = timesheetRows(ctx, query);
      const head = await source.next();
      const rows = Readable.from(
        (async function* () {
          if (!head.done) yield head.value;
          yield* source;
        })(),
      );
      const name = `timesheet-${query.from}-${query.to}`;
      if (query.format === 'json') {
        res
          .status(200)
          .type('application/json')
          .setHeader('Content-Disposition', `attachment; filename="${name}.json"`);
        let first = true;
        res.write(`{"from":"${query.from}","to":"${query.to}","rows":[`);
        for await (const row of rows) {
          if (!res.write(`${first ? '' : ','}${JSON.stringify(row)}`))
            await new Promise((resolve) => res.once('drain', resolve));
          first = false;
        }
        res.end(']}');
        return;
      }
      res
        .status(200)
        .type('text/csv; charset=utf-8')
        .setHeader('Content-Disposition', `attachment; filename="${name}.csv"`);
      await pipeline(
        rows,
        stringify({ ...csvExportOptions, columns: timesheetColumns, cast: { boolean: (b) => (b ? 'true' : 'false') } }),
        res,
      );
    },
  );
}
