import type { AuditEntry } from '../../../entities/platform/audit';
import { withoutTenant, type Lean } from '../../../lib/lean';
import { toPage, type Page, type PageProps } from '../../../lib/pagination';
import type { Services } from '../../services';
import { auditPage } from '../store/admin';

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
