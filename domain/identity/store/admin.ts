import type { Em } from '../../../lib/db';
import { lean } from '../../../lib/lean';
import { Organization } from '../../../entities/identity/organization';
import { User } from '../../../entities/identity/user';
import { AuditEntry } from '../../../entities/platform/audit';
import { MailMessage } from '../../../entities/platform/mail';

/** Statements of the platform administration (/admin): platform-wide reads, no tenant. */

/** Any constant key: serialises promotions and demotions platform-wide (transaction-scoped advisory lock). */
const ADMIN_LOCK = 0x61646d6e;

/** Takes the platform-wide lock of administrator changes until the transaction ends. */
export const lockPlatformAdmins = (tx: Em) => tx.execute('select pg_advisory_xact_lock(?)', [ADMIN_LOCK]);

/** Headline counts of the platform, in one round trip. */
export interface PlatformCounts {
  users: number;
  confirmed: number;
  disabled: number;
  admins: number;
  organizations: number;
  suspended: number;
  sessions: number;
  d1: number;
  d7: number;
  d30: number;
  queued: number;
  kept: number;
  sent: number;
  failed: number;
  capped: number;
}

export async function platformCounts(em: Em): Promise<PlatformCounts> {
  const [row] = await em.execute<PlatformCounts[]>(`
    select
      (select count(*) from users)::int as users,
      (select count(*) from users where email_confirmed_at is not null)::int as confirmed,
      (select count(*) from users where disabled_at is not null)::int as disabled,
      (select count(*) from users where is_platform_admin)::int as admins,
      (select count(*) from organizations)::int as organizations,
      (select count(*) from organizations where suspended_at is not null)::int as suspended,
      (select count(*) from user_sessions where revoked_at is null and expires_at > now())::int as sessions,
      (select count(*) from users where created_at > now() - interval '24 hours')::int as d1,
      (select count(*) from users where created_at > now() - interval '7 days')::int as d7,
      (select count(*) from users where created_at > now() - interval '30 days')::int as d30,
      (select count(*) from mail_messages where status = 'queued')::int as queued,
      (select count(*) from mail_messages where status = 'kept')::int as kept,
      (select count(*) from mail_messages where status = 'sent')::int as sent,
      (select count(*) from mail_messages where status = 'failed')::int as failed,
      (select count(*) from mail_messages where status = 'capped')::int as capped`);
  return row;
}

/** Sign-ups per UTC day over the last `days` days (today included), days without any included as 0. */
export const signupsByDay = (em: Em, days: number) =>
  em.execute<{ date: string; count: number }[]>(
    `select to_char(d, 'YYYY-MM-DD') as date, count(u.id)::int as count
       from generate_series((now() at time zone 'UTC')::date - (?::int - 1), (now() at time zone 'UTC')::date, interval '1 day') as d
       left join users u on u.created_at >= d at time zone 'UTC' and u.created_at < (d + interval '1 day') at time zone 'UTC'
      group by d order by d`,
    [days],
  );

// Lean statements (docs/database-path.md); $1 of the searches is an ILIKE pattern or null.
// Accounts are platform-wide (no tenant). $1 pattern, $2 cursor, $3 limit.
export const usersPage = lean(User, {
  where: '($1::text is null or email ilike $1 or display_name ilike $1) and ($2::uuid is null or id < $2)',
  orderBy: 'id desc',
  limitParam: '$3',
});

// One round trip: organisations are the tenants, so their member count and subscription tier are subqueries over
// each row's own tenant (tenant_id = its id), computed for the page only. $1 pattern, $2 cursor, $3 limit.
export const organizationsPage = lean(Organization, {
  where: '($1::text is null or name ilike $1 or slug ilike $1) and ($2::uuid is null or id < $2)',
  orderBy: 'id desc',
  limitParam: '$3',
  extra: {
    memberCount: '(select count(*)::int from memberships m where m.tenant_id = organizations.id)',
    tier: '(select s.tier from subscriptions s where s.tenant_id = organizations.id)',
  },
});

// Every combination of filters in one statement. The log is platform-wide: its tenantId is a filter here, not a
// scope. $1 action, $2 actor, $3 tenant, $4 since, $5 until, $6 cursor, $7 limit (each filter null for any).
export const auditPage = lean(AuditEntry, {
  where: `($1::text is null or action = $1) and ($2::uuid is null or actor_id = $2) and ($3::uuid is null or tenant_id = $3)
    and ($4::timestamptz is null or created_at >= $4) and ($5::timestamptz is null or created_at < $5) and ($6::uuid is null or id < $6)`,
  orderBy: 'id desc',
  limitParam: '$7',
});

// The outbox is platform-wide (its tenantId is informative only). $1 recipient, $2 status, $3 cursor, $4 limit.
export const outboxPage = lean(MailMessage, {
  where: '($1::text is null or "to" = $1) and ($2::text is null or status = $2) and ($3::uuid is null or id < $3)',
  orderBy: 'id desc',
  limitParam: '$4',
});
