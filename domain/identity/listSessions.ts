import { UserSession } from '../../entities/identity/session';
import { lean, withoutTenant, type Lean } from '../../lib/lean';
import { toPage, type Page, type PageProps } from '../../lib/pagination';
import type { Services } from '../services';

export interface ListSessionsProps extends PageProps {
  /** Only this user's sessions; every user's when absent (platform administrators). */
  userId?: string;
}

/** A session with its user's identity. */
export type ActiveSession = Lean<UserSession> & { userId: string; userEmail: string };

// A lean statement (docs/database-path.md) with the user joined. Sessions are platform-wide rows (their tenantId
// is only the active organisation), read here by platform administrators.
const activeSessionsPage = lean(UserSession, {
  join: 'join users u on u.id = user_sessions.user_id',
  where: `user_sessions.revoked_at is null and user_sessions.expires_at > $1 and ($2::uuid is null or user_sessions.user_id = $2)
    and ($3::uuid is null or user_sessions.id < $3)`,
  orderBy: 'user_sessions.id desc',
  limitParam: '$4',
  extra: { userId: 'u.id', userEmail: 'u.email' },
});

/** Signed-in sessions (not ended, not expired), newest first, with their user. */
export async function listActiveSessions(services: Services, props: ListSessionsProps): Promise<Page<ActiveSession>> {
  const rows = await activeSessionsPage.all(withoutTenant(services), new Date(), props.userId ?? null, props.cursor ?? null, props.limit + 1);
  const { items, nextCursor } = toPage(rows, props.limit);
  return { items: items.map((s) => ({ ...s, userId: s.userId as string, userEmail: s.userEmail as string })), nextCursor };
}
