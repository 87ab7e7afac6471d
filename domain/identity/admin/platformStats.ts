import type { Em } from '../../../lib/db';

export interface PlatformOverview {
  users: { total: number; confirmed: number; disabled: number; platformAdmins: number };
  organizations: { total: number; suspended: number };
  activeSessions: number;
  signups: { last24h: number; last7d: number; last30d: number };
  mails: { queued: number; kept: number; sent: number; failed: number; capped: number };
}

/** Headline figures of the platform, in one round trip. */
export async function platformOverview(em: Em): Promise<PlatformOverview> {
  const [row] = await em.execute<Record<string, number>[]>(`
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
  return {
    users: { total: row.users, confirmed: row.confirmed, disabled: row.disabled, platformAdmins: row.admins },
    organizations: { total: row.organizations, suspended: row.suspended },
    activeSessions: row.sessions,
    signups: { last24h: row.d1, last7d: row.d7, last30d: row.d30 },
    mails: { queued: row.queued, kept: row.kept, sent: row.sent, failed: row.failed, capped: row.capped },
  };
}

/** Sign-ups per UTC day over the last `days` days (today included), days without any included as 0. */
export async function signupsPerDay(em: Em, days: number): Promise<{ date: string; count: number }[]> {
  return em.execute<{ date: string; count: number }[]>(
    `select to_char(d, 'YYYY-MM-DD') as date, count(u.id)::int as count
       from generate_series((now() at time zone 'UTC')::date - (?::int - 1), (now() at time zone 'UTC')::date, interval '1 day') as d
       left join users u on u.created_at >= d at time zone 'UTC' and u.created_at < (d + interval '1 day') at time zone 'UTC'
      group by d order by d`,
    [days],
  );
}
