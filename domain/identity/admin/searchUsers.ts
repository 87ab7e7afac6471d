import type { User } from '../../../entities/identity/user';
import { withoutTenant, type Lean } from '../../../lib/lean';
import { toPage, type Page, type PageProps } from '../../../lib/pagination';
import type { Services } from '../../services';
import { containing } from './search';
import { usersPage } from '../store/admin';

export interface SearchUsersProps extends PageProps {
  /** Part of the e-mail or display name (case-insensitive). */
  q?: string;
}

/** Accounts, newest first, optionally matching a search. */
export async function searchUsers(services: Services, props: SearchUsersProps): Promise<Page<Lean<User>>> {
  const rows = await usersPage.all(
    withoutTenant(services),
    props.q ? containing(props.q) : null,
    props.cursor ?? null,
    props.limit + 1,
  );
  return toPage(rows, props.limit);
}
