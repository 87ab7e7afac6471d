import { VrParticipant, VrSession, type SessionStatus } from '../../entities/vr/session';
import { notFound } from '../../lib/errors';
import { lean, type Lean } from '../../lib/lean';
import type { TenantContext } from '../context';
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

// Lean statements (docs/database-path.md): every filter in one prepared statement (the list and the reports).
const sessionsPage = lean(VrSession, {
  where: `($1::uuid is null or room_id = $1) and ($2::text is null or simulation = $2) and ($3::text is null or status = $3)
    and ($4::timestamptz is null or started_at >= $4) and ($5::timestamptz is null or started_at < $5) and ($6::uuid is null or id < $6)`,
  orderBy: 'id desc',
  limitParam: '$7',
});
const sessionById = lean(VrSession, { where: 'id = $1' });
const participantsOf = lean(VrParticipant, { where: 'session_id = $1', orderBy: 'joined_at asc nulls last, created_at asc' });

/** The organisation's sessions, newest first. */
export async function listSessions(ctx: TenantContext, props: ListSessionsProps): Promise<Page<Lean<VrSession>>> {
  return toPage(await sessionRows(ctx, props), props.limit);
}

/** A page of sessions and one more row (is there a next page?), newest first. */
export const sessionRows = (ctx: TenantContext, props: ListSessionsProps) =>
  sessionsPage.all(ctx, props.roomId || null, props.simulation || null, props.status || null, props.from ?? null, props.to ?? null, props.cursor || null, props.limit + 1);

/** A session with its participants (first joined first; telemetry-only participants last); both read at once. */
export async function getSession(ctx: TenantContext, id: string): Promise<{ session: Lean<VrSession>; participants: Lean<VrParticipant>[] }> {
  const [session, participants] = await Promise.all([sessionById.one(ctx, id), participantsOf.all(ctx, id)]);
  if (!session) throw notFound('Session');
  return { session, participants };
}
