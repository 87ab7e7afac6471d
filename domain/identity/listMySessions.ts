import { UserSession } from '../../entities/identity/session';
import { lean, type Lean } from '../../lib/lean';
import { toPage, type Page, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';

// A lean statement (docs/database-path.md). Sessions belong to a user, not to an organisation (their tenantId
// is only the active one), so the statement is bound to the caller's user id.
const sessionsOfUser = lean(UserSession, {
  where: 'user_id = $1 and revoked_at is null and expires_at > $2 and ($3::uuid is null or id < $3)',
  orderBy: 'id desc',
  limitParam: '$4',
});

/** The caller's signed-in sessions (not ended, not expired), newest first. */
export async function listMySessions(ctx: TenantContext, userId: string, page: PageProps): Promise<Page<Lean<UserSession>>> {
  return toPage(await sessionsOfUser.all(ctx, userId, new Date(), page.cursor ?? null, page.limit + 1), page.limit);
}
