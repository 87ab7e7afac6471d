import { LockMode } from '@mikro-orm/core';
import { VrRoom } from '../../entities/vr/room';
import { VrParticipant, VrSession } from '../../entities/vr/session';
import { tenantContext } from '../context';
import type { Services } from '../services';
import { notifyHub } from './hub';
import { LiveRooms, type ExpiredPresence } from './live';
import { announceSessionEnd, endSession } from './sessionEnd';

/**
 * Turns expired presence into departures: visits every room with a running session, claims its expired
 * participants (atomically, so concurrent sweeps never claim one twice) and records each departure; the
 * host's expiry ends the session (reason host_timeout). A claim is acknowledged only once recorded, so a
 * failed sweep is finished by the next one. Recording is idempotent.
 */
export async function sweepPresence(services: Services): Promise<{ rooms: number; departures: number }> {
  const live = new LiveRooms(services);
  let rooms = 0;
  let departures = 0;
  for await (const { tenantId, roomId } of live.liveRooms()) {
    rooms++;
    for (const claim of await live.claimExpired(tenantId, roomId)) {
      if (await recordExpiry(services, live, claim)) departures++;
      await live.acknowledge(claim);
    }
  }
  return { rooms, departures };
}

/** Records one expired presence; false when there was nothing (left already, came back, session over). */
async function recordExpiry(services: Services, live: LiveRooms, claim: ExpiredPresence): Promise<boolean> {
  const ctx = tenantContext(services, claim.tenantId);
  const outcome = await ctx.em.transactional(async (em) => {
    // The room lock orders this after a concurrent join, whose presence is written under that lock.
    const room = await em.findOne(VrRoom, { id: claim.roomId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const session = await em.findOne(VrSession, { id: claim.sessionId });
    if (!session || session.status !== 'running') return { kind: 'stale' as const };
    if (await live.isPresent(claim.roomId, claim.userId)) return { kind: 'back' as const };
    const participant = await em.findOne(VrParticipant, { sessionId: session.id, userId: claim.userId, joinedAt: { $ne: null }, leftAt: null });
    if (!participant) return { kind: 'gone' as const };
    if (session.hostUserId === claim.userId) return { kind: 'ended' as const, session, present: await endSession(em, room, session, 'host_timeout') };
    participant.leftAt = new Date();
    return { kind: 'departed' as const, session };
  });
  switch (outcome.kind) {
    case 'ended':
      await announceSessionEnd(services, outcome.session, outcome.present);
      return true;
    case 'departed':
      await notifyHub(services, [{ event: 'participant.departed', tenantId: claim.tenantId, roomId: claim.roomId, sessionId: claim.sessionId, userId: claim.userId, data: { reason: 'timeout' } }]);
      return true;
    case 'stale':
      // Live state left behind by a session that ended (its cleanup failed): drop it.
      await live.endSession(claim.tenantId, claim.roomId, claim.sessionId);
      return false;
    default:
      return false;
  }
}
