import { AuditEntry } from '../../../entities/platform/audit';
import { lean, withoutTenant, type Lean } from '../../../lib/lean';
import { toPage, type Page, type PageProps } from '../../../lib/pagination';
import type { Services } from '../../services';

export interface ListAuditProps extends PageProps {
  /** Exact action, e.g. auth.login_failed. */
  action?: string;
  actorId?: string;
  tenantId?: string;
  /** Entries at or after this time. */
  since?: Date;
  /** Entries before this time. */
  until?: Date;
}

// A lean statement (docs/database-path.md): every combination of filters in one. The log is platform-wide: its
// tenantId is a filter here, not a scope.
const auditPage = lean(AuditEntry, {
  where: `($1::text is null or action = $1) and ($2::uuid is null or actor_id = $2) and ($3::uuid is null or tenant_id = $3)
    and ($4::timestamptz is null or created_at >= $4) and ($5::timestamptz is null or created_at < $5) and ($6::uuid is null or id < $6)`,
  orderBy: 'id desc',
  limitParam: '$7',
});

/** The audit log, newest first, filtered. */
export async function listAudit(services: Services, props: ListAuditProps): Promise<Page<Lean<AuditEntry>>> {
  const rows = await auditPage.all(
    withoutTenant(services),
    props.action ?? null,
    props.actorId ?? null,
    props.tenantId ?? null,
    props.since ?? null,
    props.until ?? null,
    props.cursor ?? null,
    props.limit + 1,
  );
  return toPage(rows, props.limit);
}
