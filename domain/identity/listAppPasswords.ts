import { toPage, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { appPasswordsOfUserPage } from './store/appPasswords';

export type ListedAppPassword = Awaited<ReturnType<typeof appPasswordsOfUserPage.all>>[number];

/** The caller's unrevoked app passwords in the organisation of their token, oldest first (never a secret). */
export async function listAppPasswords(ctx: TenantContext, page: PageProps) {
  return toPage(await appPasswordsOfUserPage.all(ctx, ctx.userId!, page.cursor ?? null, page.limit + 1), page.limit);
}
