import { isUtcTimestamp } from '../../lib/calendar';
import { decodeCursor, toKeysetPage, type Page } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { orgAuditAfter, type OrgAuditFilter, type OrgAuditRow } from './store/audit';

export interface OrgAuditProps {
  action?: string;
  actorId?: string;
  targetType?: string;
  targetId?: string;
  /** Entries at or after this time. */
  since?: Date;
  /** Entries before this time. */
  until?: Date;
}

const filterOf = (props: OrgAuditProps): OrgAuditFilter => ({
  action: props.action ?? null,
  actorId: props.actorId ?? null,
  targetType: props.targetType ?? null,
  targetId: props.targetId ?? null,
  since: props.since ?? null,
  until: props.until ?? null,
});

/**
 * The audit log of the context's organisation, newest first; the cursor (opaque) holds the last entry's time and
 * id; an unreadable one is 400 `validation_failed` on `cursor`. The caller checked the permission (memberContext).
 */
export async function listOrgAudit(
  ctx: TenantContext,
  props: OrgAuditProps & { limit: number; cursor?: string },
): Promise<Page<OrgAuditRow>> {
  const after: [string | null, string | null] = props.cursor
    ? decodeCursor(props.cursor, isUtcTimestamp)
    : [null, null];
  const rows = await orgAuditAfter(ctx.services, ctx.tenantId, filterOf(props), after, props.limit + 1);
  return toKeysetPage(rows, props.limit, (row) => String(row.timeKey));
}

const BATCH = 1000;

/**
 * Every entry of the organisation matching the filter, newest first, read in keyset batches of 1,000: each
 * statement is short and memory stays flat while the caller streams them out.
 */
export async function* orgAuditEntries(ctx: TenantContext, props: OrgAuditProps): AsyncGenerator<OrgAuditRow> {
  const filter = filterOf(props);
  let after: [string | null, string | null] = [null, null];
  for (;;) {
    const rows = await orgAuditAfter(ctx.services, ctx.tenantId, filter, after, BATCH);
    yield* rows;
    if (rows.length < BATCH) return;
    const last = rows[rows.length - 1];
    after = [String(last.timeKey), last.id];
  }
}
