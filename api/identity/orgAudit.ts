import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import type { ModuleMount } from '../http/mount';
import { csvExportOptions } from '../../lib/csv';
import { mapPage } from '../../lib/pagination';
import { auditExportColumns, exportOrgAudit } from '../../domain/identity/exportOrgAudit';
import { listOrgAudit, type OrgAuditProps } from '../../domain/identity/listOrgAudit';
import { memberContext } from '../../domain/identity/memberContext';
import { IdParams } from '../http/dtos';
import { AuditEntryList, AuditEntryView } from './adminViews';
import { OrgAuditExportQuery, OrgAuditQuery } from './dtos';
import { ORG_AUDIT, ORG_AUDIT_EXPORT } from './orgAudit.docs';

const errors = { 403: '`permission_denied` (needs org.manage)', 404: 'Not a member of the organisation' };

const filterOf = (q: OrgAuditExportQuery | OrgAuditQuery): OrgAuditProps => ({
  action: q.action,
  actorId: q.actorId,
  targetType: q.targetType,
  targetId: q.targetId,
  since: q.since ? new Date(q.since) : undefined,
  until: q.until ? new Date(q.until) : undefined,
});

/** /orgs/{id}/audit-log: the organisation's audit log for its owners and admins, and its export. */
export function orgAuditRoutes({ routes, services }: ModuleMount): void {
  const r = routes('Organisations');

  r.get(
    '/orgs/:id/audit-log',
    {
      summary: "The organisation's audit log",
      description: ORG_AUDIT,
      access: 'user',
      params: IdParams,
      query: OrgAuditQuery,
      response: AuditEntryList,
      errors,
    },
    async ({ auth, params, query }) => {
      const ctx = await memberContext(services, params.id, auth.userId, 'org.manage');
      const page = await listOrgAudit(ctx, { ...filterOf(query), limit: query.limit, cursor: query.cursor });
      return mapPage(page, AuditEntryView.from);
    },
  );

  r.get(
    '/orgs/:id/audit-log/export',
    {
      summary: "Export the organisation's audit log",
      description: ORG_AUDIT_EXPORT,
      access: 'user',
      params: IdParams,
      query: OrgAuditExportQuery,
      response: {
        description: 'JSON lines (application/x-ndjson) or CSV (text/csv)',
        content: { 'application/x-ndjson': { type: 'string' }, 'text/csv': { type: 'string' } },
      },
      errors,
    },
    async ({ auth, params, query, req, res }) => {
      const ctx = await memberContext(services, params.id, auth.userId, 'org.manage');
      const entries = await exportOrgAudit(ctx, { ...filterOf(query), format: query.format, ip: req.ip });
      const rows = Readable.from(
        (async function* () {
          for await (const entry of entries) yield AuditEntryView.from(entry);
        })(),
      );
      const name = `audit-log-${new Date().toISOString().slice(0, 10)}`;
      if (query.format === 'csv') {
        res
          .status(200)
          .type('text/csv; charset=utf-8')
          .setHeader('Content-Disposition', `attachment; filename="${name}.csv"`);
        const cells = Readable.from(
          (async function* () {
            for await (const view of rows as AsyncIterable<AuditEntryView>)
              yield auditExportColumns.map((c) => (c === 'data' ? JSON.stringify(view.data) : (view[c] ?? '')));
          })(),
        );
        await pipeline(cells, stringify({ ...csvExportOptions, header: true, columns: [...auditExportColumns] }), res);
        return;
      }
      res
        .status(200)
        .type('application/x-ndjson; charset=utf-8')
        .setHeader('Content-Disposition', `attachment; filename="${name}.jsonl"`);
      await pipeline(
        rows,
        async function* (source: AsyncIterable<AuditEntryView>) {
          for await (const view of source) yield `${JSON.stringify(view)}\n`;
        },
        res,
      );
    },
  );
}
