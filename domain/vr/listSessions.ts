import type { SessionStatus, VrSession } from '../../entities/vr/session';
import type { Lean } from '../../lib/lean';
import type { TenantContext } from '../context';
import { toPage, type Page } from '../../lib/pagination';
import { sessionsPage } from './store/sessions';

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

/** The organisation's sessions, newest first. */
export async function listSessions(ctx: TenantContext, props: ListSessionsProps): Promise<Page<Lean<VrSession>>> {
  return toPage(await sessionRows(ctx, props), props.limit);
}

/** A page of sessions and one more row (is there a next page?), newest first. */
export const sessionRows = (ctx: TenantContext, props: ListSessionsProps) =>
  sessionsPage.all(
    ctx,
    props.roomId || null,
    props.simulation || null,
    props.status || null,
    props.from ?? null,
    props.to ?? null,
    props.cursor || null,
    props.limit + 1,
  );
