import { User } from '../../../entities/identity/user';
import { lean, withoutTenant, type Lean } from '../../../lib/lean';
import { toPage, type Page, type PageProps } from '../../../lib/pagination';
import type { Services } from '../../services';
import { containing } from './search';

export interface SearchUsersProps extends PageProps {
  /** Part of the e-mail or display name (case-insensitive). */
  q?: string;
}

// A lean statement (docs/database-path.md); accounts are platform-wide (no tenant). $1 is an ILIKE pattern or null.
const usersPage = lean(User, {
  where: '($1::text is null or email ilike $1 or display_name ilike $1) and ($2::uuid is null or id < $2)',
  orderBy: 'id desc',
  limitParam: '$3',
});

/** Accounts, newest first, optionally matching a search. */
export async function searchUsers(services: Services, props: SearchUsersProps): Promise<Page<Lean<User>>> {
  const rows = await usersPage.all(withoutTenant(services), props.q ? containing(props.q) : null, props.cursor ?? null, props.limit + 1);
  return toPage(rows, props.limit);
}
