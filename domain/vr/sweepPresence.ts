import { VrSession } from '../../entities/vr/session';
import { tenantContext } from '../context';
import type { Services } from '../services';
import { notifyHub } from './hub';
import { LiveRooms, type ExpiredPresence } from './store/liveRooms';
import { announceSessionEnd } from './announceSessionEnd';
import { endSession } from './endSession';
import { roomRow } from './store/rooms';
import { SessionGate } from './store/sessionGate';
import { presentParticipant, presentParticipants, runningSessionsEverywhere } from './store/sessions';

/** Running sessions are compared with live presence at most this often, and at once when Redis lost its data. */
const RECONCILE_EVERY_MS = 30_000;

/**
 * Turns expired presence into departures: visits every room with a running session, claims its expired
 * participants (atomically, so concurrent sweeps never claim one twice) and records each departure at the
 * time the presence expired, however late the sweep runs; the host's expiry ends the session (reason
 * host_timeout). A claim is acknowledged only once recorded, so a failed sweep is finished by the next one.
 * Recording is idempotent.
 *
 * First, every RECONCILE_EVERY_MS (and at the next sweep after Redis lost its data: the turn is a Redis
 * key), running sessions in PostgreSQL are compared with live presence (`reconcile`) and with the telemetry
 * gate (SessionGate.repair: an end whose gate write was lost stops accepting telemetry after its grace period).
 */
export async function sweepPresence(
  services: Services,
): Promise<{ rooms: number; departures: number; restored: number }> {
  const live = new LiveRooms(services);
  const restored = (await services.redis.set(services.key('vr', 'reconciled'), '1', 'PX', RECONCILE_EVERY_MS, 'NX'))
    ? await reconcile(services, live)
    : 0;
  let rooms = 0;
  let departures = 0;
  for await (const { tenantId, roomId } of live.liveRooms()) {
    rooms++;
    for (const claim of await live.claimExpired(tenantId, roomId)) {
      if (await recordExpiry(services, live, claim)) departures++;
      await live.acknowledge(claim);
    }
  }
  return { rooms, departures, restored };
}

/**
 * A running session whose room has no live state in Redis (lost: a restart without persistence, a failover)
 * gets it back from PostgreSQL: every present participant is present again for a full TTL, as if they had
 * just sent a heartbeat; those whose headsets still run keep beating, the others time out as usual (the host
 * ending the session with host_timeout). A session whose live state is there but whose host has no presence
 * is owed the host's departure now, which ends it (host_timeout) in this sweep. Returns the sessions restored.
 */
async function reconcile(services: Services, live: LiveRooms): Promise<number> {
  const running = await runningSessionsEverywhere(services.orm.em.fork());
  let restored = 0;
  for (const session of running) {
    const host = await live.presenceOf(session.roomId, session.id, session.hostUserId);
    if (host.state === 'expired')
      await live.markGone(session.tenantId, session.roomId, session.id, session.hostUserId, host.at);
    else if (host.state === 'unknown' && (await restorePresence(services, live, session))) restored++;
  }
  await new SessionGate(services).repair(new Set(running.map((s) => s.id)));
  return restored;
}

/** Writes a session's live state again from PostgreSQL, under the room lock (as arrivals are written). */
async function restorePresence(
  services: Services,
  live: LiveRooms,
  s: Pick<VrSession, 'id' | 'tenantId' | 'roomId'>,
): Promise<boolean> {
  return tenantContext(services, s.tenantId).em.transactional(async (em) => {
    await roomRow(em, s.roomId, { lock: true });
    const session = await em.findOne(VrSession, { id: s.id });
    // Ended meanwhile, or its host hosted again (which rebuilt the room's live state).
    if (
      session?.status !== 'running' ||
      (await live.presenceOf(s.roomId, s.id, session.hostUserId)).state !== 'unknown'
    )
      return false;
    const present = await presentParticipants(em, s.id);
    for (const p of present) {
      await live.arrive({
        tenantId: s.tenantId,
        roomId: s.roomId,
        sessionId: s.id,
        hostUserId: session.hostUserId,
        userId: p.userId,
        displayName: p.displayName ?? '',
      });
    }
    return present.length > 0;
  });
}

/** Records one expired presence; false when there was nothing (left already, came back, session over). */
async function recordExpiry(services: Services, live: LiveRooms, claim: ExpiredPresence): Promise<boolean> {
  const ctx = tenantContext(services, claim.tenantId);
  const outcome = await ctx.em.transactional(async (em) => {
    // The room lock orders this after a concurrent join, whose presence is written under that lock.
    const room = await roomRow(em, claim.roomId, { lock: true });
    const session = await em.findOne(VrSession, { id: claim.sessionId });
    if (!session || session.status !== 'running') return { kind: 'stale' as const };
    if (await live.isPresent(claim.roomId, claim.userId)) return { kind: 'back' as const };
    const participant = await presentParticipant(em, session.id, claim.userId);
    if (!participant) return { kind: 'gone' as const };
    if (session.hostUserId === claim.userId)
      return {
        kind: 'ended' as const,
        session,
        present: await endSession(em, room, session, 'host_timeout', claim.expiredAt),
      };
    participant.leftAt = claim.expiredAt;
    return { kind: 'departed' as const, session };
  });
  switch (outcome.kind) {
    case 'ended':
      await announceSessionEnd(services, outcome.session, outcome.present);
      return true;
    case 'departed':
      await notifyHub(services, [
        {
          event: 'participant.departed',
          tenantId: claim.tenantId,
          roomId: claim.roomId,
          sessionId: claim.sessionId,
          userId: claim.userId,
          data: { reason: 'timeout' },
        },
      ]);
      return true;
    case 'stale':
      // Live state left behind by a session that ended (its cleanup failed): drop it.
      await live.endSession(claim.tenantId, claim.roomId, claim.sessionId);
      return false;
    default:
      return false;
  }
}
