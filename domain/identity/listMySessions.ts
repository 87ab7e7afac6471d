import type { UserSession } from '../../entities/identity/session';
import type { Lean } from '../../lib/lean';
import { sessionsOfUserPage } from './store/sessions';
import { toPage, type Page, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';

/** The caller's signed-in sessions (not ended, not expired), newest first. */
export async function listMySessions(
  ctx: TenantContext,
  userId: string,
  page: PageProps,
): Promise<Page<Lean<UserSession>>> {
  return toPage(await sessionsOfUserPage.all(ctx, userId, new Date(), page.cursor ?? null, page.limit + 1), page.limit);
}
