import { VrSession } from '../../../entities/vr/session';
import type { Services } from '../../services';
import { runScript } from './redisScript';

const MEMO_MAX_MS = 5000;
const MEMO_MAX_ENTRIES = 10_000;
const admitted = new WeakMap<object, Map<string, number>>();

export type GateState = 'accepting' | 'ended' | 'unknown';

// Marks a session running unless the gate already holds something for it: an end (its grace period, or
// "ended") written meanwhile is never overwritten. A running mark joins the set the repair visits.
// Returns the gate's value and its PTTL (-1: no expiry, i.e. running).
const MARK_RUNNING = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX') then
  redis.call('SADD', KEYS[2], ARGV[2])
  return {ARGV[1], -1}
end
return {redis.call('GET', KEYS[1]), redis.call('PTTL', KEYS[1])}`;

/**
 * Whether a session accepts telemetry, cached in Redis so the telemetry edge asks no database: written when
 * a session starts (running) and ends (accepting for TELEMETRY_GRACE_SECONDS more, for late batches); on a
 * miss the database answers once and the answer is cached. Values: "<tenantId>:1" accepting (running: no
 * expiry; ended: until the grace period is over), "<tenantId>:0" ended past the grace period, "none" unknown id.
 *
 * Running is written only where nothing is (SET NX), so an end that got there first stays. Running marks
 * have no expiry (the intake keeps serving while PostgreSQL is down), so an end whose write was lost (Redis
 * failing right after the end's commit) is repaired by the presence sweep (`repair`), which compares the
 * sessions marked running with PostgreSQL.
 */
export class SessionGate {
  constructor(private readonly services: Pick<Services, 'redis' | 'key' | 'config' | 'orm'>) {}

  /**
   * Admissions already granted, per process: a few seconds (a tenth of the grace period at most) during which
   * the same session's next batches skip Redis too. Safe because an ended session keeps accepting telemetry
   * for the whole grace period anyway.
   */
  private get memo(): Map<string, number> {
    let memo = admitted.get(this.services);
    if (!memo) admitted.set(this.services, (memo = new Map()));
    return memo;
  }

  private keyOf(sessionId: string): string {
    return this.services.key('vr', 'session', sessionId);
  }

  /** Sessions the gate marks running (what `repair` visits). */
  private get runningKey(): string {
    return this.services.key('vr', 'sessions-running');
  }

  private async markRunning(tenantId: string, sessionId: string): Promise<{ value: string; running: boolean }> {
    const [value, pttl] = (await runScript(
      this.services.redis,
      MARK_RUNNING,
      [this.keyOf(sessionId), this.runningKey],
      [`${tenantId}:1`, sessionId],
    )) as [string, number];
    return { value, running: value === `${tenantId}:1` && Number(pttl) === -1 };
  }

  /**
   * A session started (call after its commit). False when the gate already holds its end (it ended before
   * its start was announced): the start is then not announced at all.
   */
  async started(tenantId: string, sessionId: string): Promise<boolean> {
    return (await this.markRunning(tenantId, sessionId)).running;
  }

  async ended(tenantId: string, sessionId: string): Promise<void> {
    await this.services.redis
      .multi()
      .set(this.keyOf(sessionId), `${tenantId}:1`, 'EX', Math.max(1, this.services.config.TELEMETRY_GRACE_SECONDS))
      .srem(this.runningKey, sessionId)
      .exec();
  }

  /**
   * Whether the session accepts telemetry from the organisation: `accepting` (running, or ended less than the
   * grace period ago), `ended` (past it), `unknown` (no such session, or another organisation's).
   */
  async stateOf(tenantId: string, sessionId: string): Promise<GateState> {
    const memoKey = `${tenantId}/${sessionId}`;
    if ((this.memo.get(memoKey) ?? 0) > Date.now()) return 'accepting';
    const state = (await this.services.redis.get(this.keyOf(sessionId))) ?? (await this.load(sessionId));
    if (state === `${tenantId}:1`) {
      if (this.memo.size >= MEMO_MAX_ENTRIES) this.memo.clear();
      this.memo.set(memoKey, Date.now() + Math.min(MEMO_MAX_MS, this.services.config.TELEMETRY_GRACE_SECONDS * 100));
      return 'accepting';
    }
    return state === `${tenantId}:0` ? 'ended' : 'unknown';
  }

  /**
   * Ends the gate of sessions it marks running that PostgreSQL no longer runs (their end's write was lost),
   * with what is left of their grace period. `running`: the ids of the sessions running in PostgreSQL, read
   * before the call (a session started since is looked up again). Returns the sessions repaired.
   */
  async repair(running: ReadonlySet<string>): Promise<number> {
    const { redis, orm } = this.services;
    let repaired = 0;
    let cursor = '0';
    do {
      const [next, members] = await redis.sscan(this.runningKey, cursor, 'COUNT', 500);
      cursor = next;
      const suspects = members.filter((id) => !running.has(id));
      if (!suspects.length) continue;
      // The ids alone are the lookup here (the set holds every organisation's).
      const found = await orm.em
        .fork()
        .find(
          VrSession,
          { id: { $in: suspects } },
          { filters: { tenant: false }, fields: ['tenantId', 'status', 'endedAt'] },
        );
      const byId = new Map(found.map((s) => [s.id, s]));
      for (const id of suspects) {
        const session = byId.get(id);
        if (session?.status === 'running') continue;
        if (session) await this.cacheEnd(session);
        else await redis.multi().del(this.keyOf(id)).srem(this.runningKey, id).exec();
        repaired++;
      }
    } while (cursor !== '0');
    return repaired;
  }

  /** An ended session's state from its end time: accepting for the rest of the grace period, then ended. */
  private async cacheEnd(session: Pick<VrSession, 'id' | 'tenantId' | 'endedAt'>): Promise<string> {
    const { redis, config } = this.services;
    const graceLeftMs = session.endedAt
      ? session.endedAt.getTime() + config.TELEMETRY_GRACE_SECONDS * 1000 - Date.now()
      : 0;
    const multi = redis.multi().srem(this.runningKey, session.id);
    const state = graceLeftMs > 0 ? `${session.tenantId}:1` : `${session.tenantId}:0`;
    if (graceLeftMs > 0) multi.set(this.keyOf(session.id), state, 'PX', Math.ceil(graceLeftMs));
    else multi.set(this.keyOf(session.id), state, 'EX', 3600);
    await multi.exec();
    return state;
  }

  private async load(sessionId: string): Promise<string> {
    const { orm, redis } = this.services;
    // The id alone is the lookup here; the caller's tenant is compared with the one found.
    const session = await orm.em
      .fork()
      .findOne(VrSession, { id: sessionId }, { filters: { tenant: false }, fields: ['tenantId', 'status', 'endedAt'] });
    if (!session) {
      await redis.set(this.keyOf(sessionId), 'none', 'EX', 60);
      return 'none';
    }
    // Read before an end that may have committed since: its write is kept (what it holds is the answer).
    if (session.status === 'running') return (await this.markRunning(session.tenantId, sessionId)).value;
    return this.cacheEnd(session);
  }
}
