import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { orgAuditEntries, type OrgAuditProps } from './listOrgAudit';
import type { OrgAuditRow } from './store/audit';

export const auditExportFormats = ['csv', 'jsonl'] as const;
export type AuditExportFormat = (typeof auditExportFormats)[number];

/** CSV header order of an exported entry (JSON lines use the same names). */
export const auditExportColumns = [
  'id',
  'createdAt',
  'action',
  'actorId',
  'targetType',
  'targetId',
  'ip',
  'data',
] as const;

/**
 * Starts an export of the organisation's audit log: the export itself is recorded first (`org.audit_exported`,
 * with the format and the filter), then the matching entries follow, newest first.
 */
export async function exportOrgAudit(
  ctx: TenantContext,
  props: OrgAuditProps & { format: AuditExportFormat; ip?: string | null },
): Promise<AsyncGenerator<OrgAuditRow>> {
  const { format, ip, ...filter } = props;
  audit(ctx.em, {
    action: 'org.audit_exported',
    actorId: ctx.userId,
    tenantId: ctx.tenantId,
    targetType: 'organization',
    targetId: ctx.tenantId,
    ip,
    data: { format, filter: JSON.parse(JSON.stringify(filter)) as Record<string, unknown> },
  });
  await ctx.em.flush();
  return orgAuditEntries(ctx, filter);
}
