import type { Em } from '../../../lib/db';
import { lean } from '../../../lib/lean';
import { VrParticipant, VrSession } from '../../../entities/vr/session';

// Lean statements (docs/database-path.md): every filter in one prepared statement (the list and the reports).
export const sessionsPage = lean(VrSession, {
  where: `($1::uuid is null or room_id = $1) and ($2::text is null or simulation = $2) and ($3::text is null or status = $3)
    and ($4::timestamptz is null or started_at >= $4) and ($5::timestamptz is null or started_at < $5) and ($6::uuid is null or id < $6)`,
  orderBy: 'id desc',
  limitParam: '$7',
});
export const sessionById = lean(VrSession, { where: 'id = $1' });
/** A session's participants, first joined first (telemetry-only participants last). */
export const participantsOf = lean(VrParticipant, {
  where: 'session_id = $1',
  orderBy: 'joined_at asc nulls last, created_at asc',
});
/** The participants of several sessions (a page of reports), first joined first. */
export const participantsOfSessions = lean(VrParticipant, {
  where: 'session_id = any($1::uuid[])',
  orderBy: 'joined_at asc nulls last, created_at asc, id asc',
});

/** The session if it is still running, else null. */
export function runningSession(em: Em, id: string): Promise<VrSession | null> {
  return em.findOne(VrSession, { id, status: 'running' });
}

/** Every organisation's running sessions (the presence sweep's reconciliation). */
export function runningSessionsEverywhere(
  em: Em,
): Promise<Pick<VrSession, 'id' | 'tenantId' | 'roomId' | 'hostUserId'>[]> {
  return em.find(
    VrSession,
    { status: 'running' },
    { filters: { tenant: false }, fields: ['tenantId', 'roomId', 'hostUserId'] },
  );
}

const present = (sessionId: string) => ({ sessionId, joinedAt: { $ne: null }, leftAt: null });

/** Participants present in the session (joined, not left), the host first. */
export function presentParticipants(em: Em, sessionId: string): Promise<VrParticipant[]> {
  return em.find(VrParticipant, present(sessionId), { orderBy: { isHost: 'desc' } });
}

/** User ids of the participants present in the session. */
export async function presentUserIds(em: Em, sessionId: string): Promise<string[]> {
  return (await em.find(VrParticipant, present(sessionId), { fields: ['userId'] })).map((p) => p.userId);
}

/** The user's participation if they are present in the session, else null. */
export function presentParticipant(em: Em, sessionId: string, userId: string): Promise<VrParticipant | null> {
  return em.findOne(VrParticipant, { ...present(sessionId), userId });
}

/** Every participant present in the session leaves at `at`. */
export async function markAllLeft(em: Em, sessionId: string, at: Date): Promise<void> {
  await em.nativeUpdate(VrParticipant, present(sessionId), { leftAt: at });
}

/** The user, if not left yet, leaves the session at `at`. */
export async function markLeft(em: Em, sessionId: string, userId: string, at: Date): Promise<void> {
  await em.nativeUpdate(VrParticipant, { sessionId, userId, leftAt: null }, { leftAt: at });
}

/**
 * The user joins the session now (again, after leaving: the same row). The telemetry worker may have created
 * the row already (events sent before the join): an upsert, which keeps the first joinedAt.
 */
export async function upsertJoined(
  em: Em,
  p: { id: string; tenantId: string; sessionId: string; userId: string; displayName: string },
): Promise<void> {
  await em.execute(
    `insert into vr_session_participants (id, tenant_id, created_at, session_id, user_id, display_name, is_host, joined_at)
     values (?, ?, now(), ?, ?, ?, false, now())
     on conflict (session_id, user_id) do update set display_name = excluded.display_name, left_at = null,
       joined_at = coalesce(vr_session_participants.joined_at, excluded.joined_at)`,
    [p.id, p.tenantId, p.sessionId, p.userId, p.displayName],
  );
}
