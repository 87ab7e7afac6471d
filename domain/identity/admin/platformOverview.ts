import type { Services } from '../../services';
import { platformCounts } from '../store/admin';

export interface PlatformOverview {
  users: { total: number; confirmed: number; disabled: number; platformAdmins: number };
  organizations: { total: number; suspended: number };
  activeSessions: number;
  signups: { last24h: number; last7d: number; last30d: number };
  mails: { queued: number; kept: number; sent: number; failed: number; capped: number };
}

/** Headline figures of the platform, in one round trip. */
export async function platformOverview(services: Services): Promise<PlatformOverview> {
  const row = await platformCounts(services.orm.em.fork());
  return {
    users: { total: row.users, confirmed: row.confirmed, disabled: row.disabled, platformAdmins: row.admins },
    organizations: { total: row.organizations, suspended: row.suspended },
    activeSessions: row.sessions,
    signups: { last24h: row.d1, last7d: row.d7, last30d: row.d30 },
    mails: { queued: row.queued, kept: row.kept, sent: row.sent, failed: row.failed, capped: row.capped },
  };
}
