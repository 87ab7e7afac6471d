import type { UserSession } from '../../entities/identity/session';
import { withoutTenant, type Lean } from '../../lib/lean';
import { activeSessionsPage } from './store/sessions';
import { toPage, type Page, type PageProps } from '../../lib/pagination';
import type { Services } from '../services';

export interface ListSessionsProps extends PageProps {
  /** Only this user's sessions; every user's when absent (platform administrators). */
  userId?: string;
}

/** A session with its user's identity. */
export type ActiveSession = Lean<UserSession> & { userId: string; userEmail: string };

/** Signed-in sessions (not ended, not expired), newest first, with their user. */
export async function listActiveSessions(services: Services, props: ListSessionsProps): Promise<Page<ActiveSession>> {
  const rows = await activeSessionsPage.all(
    withoutTenant(services),
    new Date(),
    props.userId ?? null,
    props.cursor ?? null,
    props.limit + 1,
  );
  const { items, nextCursor } = toPage(rows, props.limit);
  return {
    items: items.map((s) => ({ ...s, userId: s.userId as string, userEmail: s.userEmail as string })),
    nextCursor,
  };
}
