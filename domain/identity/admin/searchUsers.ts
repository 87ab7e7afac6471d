import type { FilterQuery } from '@mikro-orm/core';
import type { Em } from '../../../lib/db';
import { User } from '../../../entities/identity/user';
import { cursorWhere, toPage, type Page, type PageProps } from '../../../lib/pagination';
import { containing } from './search';

export interface SearchUsersProps extends PageProps {
  /** Part of the e-mail or display name (case-insensitive). */
  q?: string;
}

/** Accounts, newest first, optionally matching a search. */
export async function searchUsers(em: Em, props: SearchUsersProps): Promise<Page<User>> {
  const where: FilterQuery<User> = { ...cursorWhere(props.cursor, 'desc') };
  if (props.q) where.$or = [{ email: containing(props.q) }, { displayName: containing(props.q) }];
  return toPage(await em.find(User, where, { orderBy: { id: 'desc' }, limit: props.limit + 1 }), props.limit);
}
