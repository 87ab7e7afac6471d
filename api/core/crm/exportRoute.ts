import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import type { Response } from 'express';
import type { ModuleMount } from '../../http/mount';
import {
  exportColumns,
  exportRecords,
  exportResources,
  exportTimestamps,
  type ExportResource,
} from '../../../domain/core/crm/exportRecords';
import type { TenantContext } from '../../../domain/context';
import { csvExportOptions } from '../../../lib/csv';
import { isoTime } from '../../http/present';
import { ExportQuery } from './dtos';
import { crmGate } from './customers';
import { exportDoc } from './exportRoute.docs';

/** Writes with backpressure: waits for 'drain' when the socket's buffer is full. */
const write = async (res: Response, chunk: string) => {
  if (!res.write(chunk)) await once(res, 'drain');
};

const csvCell = (v: unknown) =>
  v === null || v === undefined
    ? ''
    : Array.isArray(v) && v.every((x) => typeof x === 'string')
      ? v.join(';')
      : typeof v === 'object'
        ? JSON.stringify(v)
        : v;

/** A record as written: timestamps in ISO 8601 (UTC), like every other answer. */
function present(row: Record<string, unknown>): Record<string, unknown> {
  for (const key of exportTimestamps) if (row[key] instanceof Date) row[key] = isoTime(row[key]);
  return row;
}

async function streamJsonLines(ctx: TenantContext, res: Response, resources: readonly ExportResource[]) {
  for (const resource of resources) {
    const recordType = resource.slice(0, -1);
    for await (const row of exportRecords(ctx, resource))
      await write(res, `${JSON.stringify({ recordType, ...present(row) })}\n`);
  }
}

async function streamCsv(ctx: TenantContext, res: Response, resource: ExportResource) {
  const columns = exportColumns[resource];
  const csv = stringify({ ...csvExportOptions, columns });
  csv.pipe(res);
  for await (const row of exportRecords(ctx, resource)) {
    const shown = present(row);
    if (!csv.write(columns.map((c) => csvCell(shown[c])))) await once(csv, 'drain');
  }
  csv.end();
  await finished(res);
}

/** GET /connect/export: the organisation's contacts, relations and deals for the connection module, streamed. */
export function exportRoutes({ routes }: ModuleMount): void {
  const r = routes('CRM export');
  r.get(
    '/connect/export',
    {
      ...crmGate,
      permission: 'core.customers.read',
      summary: 'Export contacts, relations and deals',
      description: exportDoc,
      query: ExportQuery,
      response: {
        description: 'JSON lines (application/x-ndjson) or CSV (text/csv)',
        content: { 'application/x-ndjson': { type: 'string' }, 'text/csv': { type: 'string' } },
      },
    },
    async ({ ctx, query, res }) => {
      const stamp = new Date().toISOString().slice(0, 10);
      if (query.format === 'csv') {
        const resource = query.resource ?? 'customers';
        res.status(200).set({
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="${resource}-${stamp}.csv"`,
        });
        await streamCsv(ctx, res, resource);
      } else {
        res.status(200).set({
          'Content-Type': 'application/x-ndjson; charset=utf-8',
          'Content-Disposition': `attachment; filename="crm-${stamp}.jsonl"`,
        });
        await streamJsonLines(ctx, res, query.resource ? [query.resource] : exportResources);
        res.end();
      }
    },
  );
}
