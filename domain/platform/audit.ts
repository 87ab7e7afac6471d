import type { Em } from '../../lib/db';
import { AuditEntry } from '../../entities/platform/audit';

export interface AuditProps {
  action: string;
  actorId?: string | null;
  tenantId?: string | null;
  targetType?: string;
  targetId?: string;
  ip?: string | null;
  data?: Record<string, unknown>;
}

/** Adds an audit entry to the unit of work: it is written with the change it records (same flush). */
export function audit(em: Em, props: AuditProps): void {
  em.create(AuditEntry, {
    action: props.action,
    actorId: props.actorId ?? null,
    tenantId: props.tenantId ?? null,
    targetType: props.targetType ?? null,
    targetId: props.targetId ?? null,
    ip: props.ip ?? null,
    data: props.data ?? {},
  });
}
