import { stringify } from 'csv-stringify';
import { closePayrollMonth } from '../../domain/hr/closePayrollMonth';
import { listPayrollMonths, MAX_PAYROLL_MONTHS } from '../../domain/hr/listPayrollMonths';
import { payrollCodesOf } from '../../domain/hr/payrollCodes';
import { exportPayrollMonth, payrollCsvColumns, payrollCsvLines } from '../../domain/hr/payrollExport';
import { updatePayrollCodes } from '../../domain/hr/updatePayrollCodes';
import { csvExportOptions } from '../../lib/csv';
import type { ModuleMount } from '../http/mount';
import { isoTime } from '../http/present';
import { closeMonthDocs, exportMonthDocs, payrollCodesDocs, updatePayrollCodesDocs } from './payroll.docs';
import {
  ClosedMonthView,
  PayrollExportQuery,
  mappingOf,
  PayrollMonthListView,
  PayrollMonthView,
  PayrollMonthParams,
  PayrollMonthsQuery,
  PayrollCodesBody,
  PayrollCodesView,
  payrollJsonSchema,
} from './payrollViews';

/** Decimal comma with 2 decimals: what French payroll software and spreadsheets read beside a ";" separator. */
const frenchDecimal = (n: number) => n.toFixed(2).replace('.', ',');

/** CSV text of lines, all at once (a month's export is one line per employee and variable). */
function csvText(lines: object[], columns: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    stringify(lines, { ...csvExportOptions, delimiter: ';', columns, cast: { number: frenchDecimal } }, (err, out) =>
      err ? reject(err) : resolve(out),
    ),
  );
}

/** Payroll: the code mapping, month closing and the export of a closed month's variables. */
export function payrollRoutes({ routes }: ModuleMount): void {
  const r = routes('HR payroll');
  const gate = { access: 'user', module: 'rh', permission: 'hr.employees.manage' } as const;

  r.get(
    '/api/rh/payroll/codes',
    { ...gate, summary: 'Payroll code mapping', description: payrollCodesDocs, response: PayrollCodesView },
    async ({ ctx }) => PayrollCodesView.from(await payrollCodesOf(ctx)),
  );

  r.put(
    '/api/rh/payroll/codes',
    {
      ...gate,
      summary: 'Replace the payroll code mapping',
      description: updatePayrollCodesDocs,
      body: PayrollCodesBody,
      response: PayrollCodesView,
    },
    async ({ ctx, body }) => PayrollCodesView.from(await updatePayrollCodes(ctx, mappingOf(body))),
  );

  r.get(
    '/api/rh/payroll/months',
    {
      ...gate,
      summary: 'Payroll months and their state',
      description: `Every month from \`from\` to \`to\` (at most ${MAX_PAYROLL_MONTHS}; default: the twelve months up to the current one), oldest first, each open, closable or closed (with when, by whom and how many employees).`,
      query: PayrollMonthsQuery,
      response: PayrollMonthListView,
    },
    async ({ ctx, query }) => ({ items: (await listPayrollMonths(ctx, query)).map(PayrollMonthView.from) }),
  );

  r.post(
    '/api/rh/payroll/months/:month/close',
    {
      ...gate,
      summary: 'Close a payroll month',
      description: closeMonthDocs,
      params: PayrollMonthParams,
      response: ClosedMonthView,
      status: 201,
      errors: { 409: '`month_not_ended`, `month_already_closed`' },
    },
    async ({ ctx, params }) => ClosedMonthView.from(await closePayrollMonth(ctx, params.month)),
  );

  r.get(
    '/api/rh/payroll/months/:month/export',
    {
      ...gate,
      summary: "Export a closed month's payroll variables",
      description: exportMonthDocs,
      params: PayrollMonthParams,
      query: PayrollExportQuery,
      errors: { 409: '`month_not_closed`' },
      response: {
        description: 'The payroll variables (CSV, or JSON with format=json)',
        content: { 'text/csv': { type: 'string' }, 'application/json': payrollJsonSchema },
      },
    },
    async ({ ctx, params, query, res }) => {
      const data = await exportPayrollMonth(ctx, params.month);
      const name = `payroll-${data.month}`;
      if (query.format === 'json') {
        res
          .status(200)
          .type('application/json')
          .setHeader('Content-Disposition', `attachment; filename="${name}.json"`)
          .send(JSON.stringify({ ...data, closedAt: isoTime(data.closedAt) }));
        return;
      }
      const text = await csvText(payrollCsvLines(data), payrollCsvColumns);
      res
        .status(200)
        .type('text/csv; charset=utf-8')
        .setHeader('Content-Disposition', `attachment; filename="${name}.csv"`)
        .send(text);
    },
  );
}
