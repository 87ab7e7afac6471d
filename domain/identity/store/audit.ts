import { AuditEntry } from '../../../entities/platform/audit';
import { keysetTimeKey, lean, withoutTenant, type LeanScope } from '../../../lib/lean';

/** Statements of an organisation's audit log (GET /orgs/{id}/audit-log and its export). */

// audit_entries has no tenant filter (platform entries have none), so the organisation is the explicit $1. Newest
// first by (created_at, id), after the cursor's position ($8 time to the microsecond, $9 id; both null on the
// first page): a backward range on the (tenant_id, created_at) index, however deep the page.
const orgAuditPage = lean(AuditEntry, {
  extra: { timeKey: keysetTimeKey('audit_entries', 'created_at') },
  where: `tenant_id = $1 and ($2::text is null or action = $2) and ($3::uuid is null or actor_id = $3)
    and ($4::text is null or target_type = $4) and ($5::text is null or target_id = $5)
    and ($6::timestamptz is null or created_at >= $6) and ($7::timestamptz is null or created_at < $7)
    and (audit_entries.created_at, audit_entries.id) < (coalesce($8::timestamptz, 'infinity'::timestamptz), coalesce($9::uuid, 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid))`,
  orderBy: 'created_at desc, id desc',
  limitParam: '$10',
});

export interface OrgAuditFilter {
  action: string | null;
  actorId: string | null;
  targetType: string | null;
  targetId: string | null;
  since: Date | null;
  until: Date | null;
}

/** Up to `limit` entries of the organisation matching `filter`, older than the position (time key, id). */
export const orgAuditAfter = (
  services: LeanScope['services'],
  tenantId: string,
  filter: OrgAuditFilter,
  after: [string | null, string | null],
  limit: number,
) =>
  orgAuditPage.all(
    withoutTenant(services),
    tenantId,
    filter.action,
    filter.actorId,
    filter.targetType,
    filter.targetId,
    filter.since,
    filter.until,
    after[0],
    after[1],
    limit,
  );

export type OrgAuditRow = Awaited<ReturnType<typeof orgAuditAfter>>[number];
