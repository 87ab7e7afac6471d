import type { CloudShare } from '../../entities/cloud/share';
import type { AuditProps } from '../platform/audit';
import type { TenantContext } from '../context';

/** The audit entry of a share's creation, change or revocation: what is shared, how, with whom (never a password). */
export const shareAudit = (
  ctx: TenantContext,
  action: 'cloud.share_created' | 'cloud.share_updated' | 'cloud.share_revoked',
  share: CloudShare,
  data: Record<string, unknown> = {},
): AuditProps => ({
  action,
  actorId: ctx.userId,
  tenantId: ctx.tenantId,
  targetType: 'cloud_share',
  targetId: share.id,
  data: { nodeId: share.nodeId, kind: share.kind, permission: share.permission, ...data },
});
