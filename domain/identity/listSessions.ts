import type { FilterQuery } from '@mikro-orm/core';
import type { Em } from '../../lib/db';
import { UserSession } from '../../entities/identity/session';
import { cursorWhere, toPage, type Page, type PageProps } from '../../lib/pagination';

export interface ListSessionsProps extends PageProps {
  /** Only this user's sessions; every user's when absent (platform administrators). */
  userId?: string;
}

/** Signed-in sessions (not ended, not expired), newest first, with their user. */
export async function listActiveSessions(em: Em, props: ListSessionsProps): Promise<Page<UserSession>> {
  const where: FilterQuery<UserSession> = { revokedAt: null, expiresAt: { $gt: new Date() }, ...cursorWhere(props.cursor, 'desc') };
  if (props.userId) where.user = props.userId;
  const rows = await em.find(UserSession, where, { populate: ['user'], orderBy: { id: 'desc' }, limit: props.limit + 1 });
  return toPage(rows, props.limit);
}
