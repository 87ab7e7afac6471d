import type { Services } from '../../services';
import { occupancyCache } from './occupancyCache';
import { runScript } from './redisScript';

/**
 * The live side of VR rooms, in Redis (shared by every dyno): which session runs in a room, who is present
 * and until when. PostgreSQL stays the record (sessions, participants); this is what heartbeats touch, so the
 * hottest headset calls never reach the database. Arrivals are written under the room's row lock (so an
 * expiry being recorded concurrently sees them); ends and departures after their commit.
 *
 * Per room:
 *   room      hash  tenantId, sessionId, hostUserId    while a session runs
 *   presence  hash  userId -> JSON presence record
 *   expiry    zset  userId scored by expiry (ms)      the joined participants of the running session
 *   departed  set   expiries claimed by a sweep, not yet written to the database ("session/user/expiry ms")
 * Per session:
 *   participants  set  every user who hosted or joined it, "*" when complete (see COMPLETE); telemetry's edge check
 * Global: `live-rooms`, a set of "tenantId/roomId" with a running session (what the sweep visits).
 * Every change is one Lua script, so a heartbeat, a join, an end and a sweep never see each other half-done.
 */
export interface PresenceRecord {
  userId: string;
  displayName: string;
  currentStep: string | null;
  isHost: boolean;
  lastSeenAt: Date;
  expiresAt: Date;
}

interface StoredPresence {
  displayName: string;
  currentStep: string | null;
  lastSeenAt: number;
}

/**
 * Every user who arrived in a session (hosted or joined it), kept PARTICIPANTS_TTL_SECONDS after the last
 * arrival, with the member COMPLETE when the set was started by the session's own start: only then does it
 * hold everyone who took part (a set rebuilt after Redis lost it, or expired, lacks the mark).
 */
const COMPLETE = '*';
export const PARTICIPANTS_TTL_SECONDS = 24 * 3600;

/** A presence expiry claimed by the sweep: a departure to record. */
export interface ExpiredPresence {
  tenantId: string;
  roomId: string;
  sessionId: string;
  userId: string;
  /** When the presence expired: the time of the departure. */
  expiredAt: Date;
  /** The claim as stored, to acknowledge once recorded. */
  token: string;
}

/**
 * Where a participant's presence in a session stands: present (unexpired), expired (a departure is owed,
 * claimed by the sweep or not yet), or unknown (Redis has no live state of this session: it was lost).
 */
export type PresenceState = { state: 'present' } | { state: 'expired'; at: Date } | { state: 'unknown' };

// A presence past its expiry is not revived: that expiry is a departure (recorded by the sweep whenever it
// runs) and the participant must join again, which is a new arrival.
const HEARTBEAT = `
if redis.call('HGET', KEYS[1], 'tenantId') ~= ARGV[1] then return false end
local expiry = redis.call('ZSCORE', KEYS[3], ARGV[2])
if not expiry or tonumber(expiry) <= tonumber(ARGV[5]) then return false end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[2])
return redis.call('HMGET', KEYS[1], 'sessionId', 'hostUserId')`;

// Adds a participant to the room's live state of `sessionId`, starting that state afresh when it belonged to
// an older session (or was lost); a stale call for an older session than the live one does nothing.
// UUIDv7 ids sort by creation, so comparing them orders sessions. First, whatever the room holds, the user
// joins the session's participant set (KEYS[6]), with the "complete" mark when this arrival starts the session.
const ARRIVE = `
if ARGV[8] == '1' then redis.call('SADD', KEYS[6], '${COMPLETE}') end
redis.call('SADD', KEYS[6], ARGV[2])
redis.call('EXPIRE', KEYS[6], ARGV[9])
local current = redis.call('HGET', KEYS[1], 'sessionId')
if current ~= ARGV[1] then
  if current and current > ARGV[1] then return 0 end
  redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
  redis.call('HSET', KEYS[1], 'tenantId', ARGV[5], 'sessionId', ARGV[1], 'hostUserId', ARGV[6])
  redis.call('SADD', KEYS[5], ARGV[5] .. '/' .. ARGV[7])
end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[2])
return 1`;

const DEPART = `
if redis.call('HGET', KEYS[1], 'sessionId') ~= ARGV[1] then return 0 end
redis.call('HDEL', KEYS[2], ARGV[2])
return redis.call('ZREM', KEYS[3], ARGV[2])`;

const END = `
if redis.call('HGET', KEYS[1], 'sessionId') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
redis.call('SREM', KEYS[5], ARGV[2])
return 1`;

// Moves expired participants from the live sets to `departed` (as "session/user/expiry ms") in one step:
// a heartbeat racing the sweep either lands before their expiry (and they stay) or is refused.
const CLAIM = `
local session = redis.call('HGET', KEYS[1], 'sessionId')
if not session then
  redis.call('SREM', KEYS[5], ARGV[2])
  return {}
end
local expired = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', ARGV[1], 'WITHSCORES')
for i = 1, #expired, 2 do
  redis.call('ZREM', KEYS[3], expired[i])
  redis.call('HDEL', KEYS[2], expired[i])
  redis.call('SADD', KEYS[4], session .. '/' .. expired[i] .. '/' .. expired[i + 1])
end
return redis.call('SMEMBERS', KEYS[4])`;

// A participant of the live session without presence (lost): their departure is owed now. Keeps the room in
// the sweep's set.
const MARK_GONE = `
if redis.call('HGET', KEYS[1], 'sessionId') ~= ARGV[1] then return 0 end
redis.call('ZREM', KEYS[3], ARGV[2])
redis.call('HDEL', KEYS[2], ARGV[2])
redis.call('SADD', KEYS[4], ARGV[1] .. '/' .. ARGV[2] .. '/' .. ARGV[3])
redis.call('SADD', KEYS[5], ARGV[4])
return 1`;

export class LiveRooms {
  constructor(private readonly services: Pick<Services, 'redis' | 'key' | 'config'>) {}

  private keys(roomId: string) {
    const { key } = this.services;
    return {
      room: key('vr', 'room', roomId),
      presence: key('vr', 'presence', roomId),
      expiry: this.expiryKey(roomId),
      departed: key('vr', 'departed', roomId),
    };
  }

  /** Alone, for the rooms list's occupancy (the other keys would be built for nothing). */
  private expiryKey(roomId: string): string {
    return this.services.key('vr', 'expiry', roomId);
  }

  private get liveRoomsKey(): string {
    return this.services.key('vr', 'live-rooms');
  }

  private get ttlMs(): number {
    return this.services.config.PRESENCE_TTL_SECONDS * 1000;
  }

  private record(displayName: string, currentStep: string | null, now: number): string {
    return JSON.stringify({ displayName, currentStep, lastSeenAt: now } satisfies StoredPresence);
  }

  private participantsKey(sessionId: string): string {
    return this.services.key('vr', 'participants', sessionId);
  }

  /**
   * A participant is present (the host when the session starts, or someone joining): present until the TTL
   * unless they heartbeat. Also rebuilds the room's live state if Redis lost it. Written under the room lock
   * and before the commit, so the session's participant set holds at least everyone the database records as
   * having joined or hosted it. `starts`: this is the host's arrival that creates the session.
   */
  async arrive(a: {
    tenantId: string;
    roomId: string;
    sessionId: string;
    hostUserId: string;
    userId: string;
    displayName: string;
    starts?: boolean;
  }): Promise<void> {
    const k = this.keys(a.roomId);
    const now = Date.now();
    occupancyCache.forget(k.expiry);
    await runScript(
      this.services.redis,
      ARRIVE,
      [k.room, k.presence, k.expiry, k.departed, this.liveRoomsKey, this.participantsKey(a.sessionId)],
      [
        a.sessionId,
        a.userId,
        this.record(a.displayName, null, now),
        now + this.ttlMs,
        a.tenantId,
        a.hostUserId,
        a.roomId,
        a.starts ? '1' : '0',
        PARTICIPANTS_TTL_SECONDS,
      ],
    );
  }

  /**
   * Which of `userIds` certainly took no part in the session (never hosted nor joined it), from its
   * participant set: none when the set is not known complete (lost, expired, or started before it existed),
   * in which case the database decides (the telemetry worker). One round trip. Telemetry's edge then tells
   * members (refused) from simulated trainees (accepted) among them (acceptTelemetry.ts).
   */
  async nonParticipants(sessionId: string, userIds: string[]): Promise<Set<string>> {
    const key = this.participantsKey(sessionId);
    const multi = this.services.redis.multi().sismember(key, COMPLETE);
    for (const userId of userIds) multi.sismember(key, userId); // not SMISMEMBER: Redis 6.2+
    const [[, complete], ...members] = (await multi.exec()) as [null, number][];
    if (!complete) return new Set();
    return new Set(userIds.filter((_, i) => !members[i][1]));
  }

  /**
   * Refreshes a participant's presence. Null when the caller is not a present participant of a session
   * running in this room of their organisation (never joined, left, or expired).
   */
  async heartbeat(p: {
    tenantId: string;
    roomId: string;
    userId: string;
    displayName: string;
    currentStep: string | null;
  }): Promise<{ sessionId: string; isHost: boolean; expiresAt: Date } | null> {
    const k = this.keys(p.roomId);
    const now = Date.now();
    const expiresAt = now + this.ttlMs;
    const result = (await runScript(
      this.services.redis,
      HEARTBEAT,
      [k.room, k.presence, k.expiry],
      [p.tenantId, p.userId, this.record(p.displayName, p.currentStep, now), expiresAt, now],
    )) as [string, string] | null;
    if (!result) return null;
    return { sessionId: result[0], isHost: result[1] === p.userId, expiresAt: new Date(expiresAt) };
  }

  /** Whether the participant has unexpired presence in the room. */
  async isPresent(roomId: string, userId: string): Promise<boolean> {
    const score = await this.services.redis.zscore(this.keys(roomId).expiry, userId);
    return score !== null && Number(score) > Date.now();
  }

  /** Where the participant's presence in this session stands (see PresenceState). */
  async presenceOf(roomId: string, sessionId: string, userId: string, now = Date.now()): Promise<PresenceState> {
    return (await this.presenceOfMany(roomId, sessionId, [userId], now)).get(userId)!;
  }

  /**
   * presenceOf for several participants in one round trip. An expiry the sweep claimed but has not recorded
   * yet keeps its time (the claim's); a participant without any presence (lost) is expired now.
   */
  async presenceOfMany(
    roomId: string,
    sessionId: string,
    userIds: string[],
    now = Date.now(),
  ): Promise<Map<string, PresenceState>> {
    const k = this.keys(roomId);
    const multi = this.services.redis.multi().hget(k.room, 'sessionId').smembers(k.departed);
    for (const userId of userIds) multi.zscore(k.expiry, userId); // not ZMSCORE: Redis 6.2+
    const [[, liveSession], [, claims], ...scores] = (await multi.exec()) as [
      [null, string | null],
      [null, string[]],
      ...[null, string | null][],
    ];
    const states = new Map<string, PresenceState>();
    userIds.forEach((userId, i) => {
      const score = scores[i][1];
      if (liveSession !== sessionId) states.set(userId, { state: 'unknown' });
      else if (score !== null && Number(score) > now) states.set(userId, { state: 'present' });
      else {
        const claimed = score === null ? claims.find((c) => c.startsWith(`${sessionId}/${userId}/`)) : undefined;
        const at = score !== null ? Number(score) : claimed ? Number(claimed.split('/')[2]) : now;
        states.set(userId, { state: 'expired', at: new Date(at) });
      }
    });
    return states;
  }

  /** Owes the departure of a participant of the live session whose presence is gone (the sweep records it). */
  async markGone(tenantId: string, roomId: string, sessionId: string, userId: string, at: Date): Promise<void> {
    const k = this.keys(roomId);
    occupancyCache.forget(k.expiry);
    await runScript(
      this.services.redis,
      MARK_GONE,
      [k.room, k.presence, k.expiry, k.departed, this.liveRoomsKey],
      [sessionId, userId, at.getTime(), `${tenantId}/${roomId}`],
    );
  }

  /** A participant left (not the host: that ends the session). */
  async depart(roomId: string, sessionId: string, userId: string): Promise<void> {
    const k = this.keys(roomId);
    occupancyCache.forget(k.expiry);
    await runScript(this.services.redis, DEPART, [k.room, k.presence, k.expiry], [sessionId, userId]);
  }

  /** The session ended: the room has no live state any more (unless a newer session already replaced it). */
  async endSession(tenantId: string, roomId: string, sessionId: string): Promise<void> {
    const k = this.keys(roomId);
    occupancyCache.forget(k.expiry);
    await runScript(
      this.services.redis,
      END,
      [k.room, k.presence, k.expiry, k.departed, this.liveRoomsKey],
      [sessionId, `${tenantId}/${roomId}`],
    );
  }

  /** Participants present now, with the host flag from the session (not from what headsets claim). */
  async presence(roomId: string): Promise<PresenceRecord[]> {
    const k = this.keys(roomId);
    const [[, room], [, stored], [, expiries]] = (await this.services.redis
      .multi()
      .hmget(k.room, 'hostUserId')
      .hgetall(k.presence)
      .zrangebyscore(k.expiry, Date.now(), '+inf', 'WITHSCORES')
      .exec()) as [[null, (string | null)[]], [null, Record<string, string>], [null, string[]]];
    const host = room[0];
    const records: PresenceRecord[] = [];
    for (let i = 0; i < expiries.length; i += 2) {
      const userId = expiries[i];
      const raw = stored[userId];
      if (!raw) continue;
      const p = JSON.parse(raw) as StoredPresence;
      records.push({
        userId,
        displayName: p.displayName,
        currentStep: p.currentStep,
        isHost: userId === host,
        lastSeenAt: new Date(p.lastSeenAt),
        expiresAt: new Date(Number(expiries[i + 1])),
      });
    }
    return records;
  }

  /** How many participants are present in each room (unexpired presence; up to 1 s old: occupancyCache.ts). */
  async occupancy(roomIds: string[]): Promise<Map<string, number>> {
    const now = Date.now();
    const counts = new Map<string, number>();
    const missing: { id: string; key: string }[] = [];
    for (const id of roomIds) {
      const key = this.expiryKey(id);
      const count = occupancyCache.count(key, now);
      if (count === undefined) missing.push({ id, key });
      else counts.set(id, count);
    }
    if (!missing.length) return counts;
    const pipeline = this.services.redis.pipeline();
    for (const { key } of missing) pipeline.zrangebyscore(key, now, '+inf', 'WITHSCORES');
    const results = (await pipeline.exec()) ?? [];
    missing.forEach(({ id, key }, i) => {
      const [err, flat] = results[i] ?? [null, []];
      const expiries = ((flat ?? []) as string[]).filter((_, j) => j % 2 === 1).map(Number);
      if (!err) occupancyCache.remember(key, expiries, now);
      counts.set(id, expiries.length);
    });
    return counts;
  }

  /** Rooms with a running session, as the sweep visits them. */
  async *liveRooms(): AsyncGenerator<{ tenantId: string; roomId: string }> {
    let cursor = '0';
    do {
      const [next, members] = await this.services.redis.sscan(this.liveRoomsKey, cursor, 'COUNT', 500);
      cursor = next;
      for (const member of members) {
        const [tenantId, roomId] = member.split('/');
        yield { tenantId, roomId };
      }
    } while (cursor !== '0');
  }

  /**
   * Claims the room's expired presences and returns every claim not yet acknowledged (older ones included,
   * should recording them have failed). A room without live state leaves the sweep's set.
   */
  async claimExpired(tenantId: string, roomId: string, now = Date.now()): Promise<ExpiredPresence[]> {
    const k = this.keys(roomId);
    const claims = (await runScript(
      this.services.redis,
      CLAIM,
      [k.room, k.presence, k.expiry, k.departed, this.liveRoomsKey],
      [now, `${tenantId}/${roomId}`],
    )) as string[];
    return claims.map((token) => {
      const [sessionId, userId, expiry] = token.split('/');
      return { tenantId, roomId, sessionId, userId, expiredAt: new Date(expiry ? Number(expiry) : now), token };
    });
  }

  /** The departure of a claimed expiry is in the database. */
  async acknowledge(expired: ExpiredPresence): Promise<void> {
    await this.services.redis.srem(this.keys(expired.roomId).departed, expired.token);
  }
}
