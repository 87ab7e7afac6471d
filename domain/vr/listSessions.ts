import type { FilterQuery } from '@mikro-orm/core';
import { VrParticipant, VrSession, type SessionStatus } from '../../entities/vr/session';
import type { TenantContext } from '../context';
import { findSession } from './lookup';
import { toPage, type Page } from '../../lib/pagination';

export interface SessionFilters {
  roomId?: string;
  simulation?: string;
  status?: SessionStatus;
  /** Sessions started at or after this time. */
  from?: Date;
  /** Sessions started before this time. */
  to?: Date;
}

export interface ListSessionsProps extends SessionFilters {
  limit: number;
  /** Id of the last session of the previous page. */
  cursor?: string;
}

export function sessionWhere(filters: SessionFilters, cursor?: string): FilterQuery<VrSession> {
  const where: FilterQuery<VrSession> = {};
  if (filters.roomId) where.roomId = filters.roomId;
  if (filters.simulation) where.simulation = filters.simulation;
  if (filters.status) where.status = filters.status;
  if (filters.from || filters.to) where.startedAt = { ...(filters.from ? { $gte: filters.from } : {}), ...(filters.to ? { $lt: filters.to } : {}) };
  if (cursor) where.id = { $lt: cursor };
  return where;
}

/** The organisation's sessions, newest first. */
export async function listSessions(ctx: TenantContext, props: ListSessionsProps): Promise<Page<VrSession>> {
  const rows = await ctx.em.find(VrSession, sessionWhere(props, props.cursor), { orderBy: { id: 'desc' }, limit: props.limit + 1 });
  return toPage(rows, props.limit);
}

/** A session with its participants (first joined first; telemetry-only participants last). */
export async function getSession(ctx: TenantContext, id: string): Promise<{ session: VrSession; participants: VrParticipant[] }> {
  const session = await findSession(ctx.em, id);
  const participants = await ctx.em.find(VrParticipant, { sessionId: id }, { orderBy: { joinedAt: 'asc nulls last', createdAt: 'asc' } });
  return { session, participants };
}
