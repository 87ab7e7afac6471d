import { VrSession } from '../../entities/vr/session';
import { conflict, notFound } from '../../lib/errors';
import type { Services } from '../services';

const MEMO_MAX_MS = 5000;
const MEMO_MAX_ENTRIES = 10_000;
const admitted = new WeakMap<object, Map<string, number>>();

/**
 * Whether a session accepts telemetry, cached in Redis so the telemetry edge asks no database: written when
 * a session starts (running) and ends (accepting for TELEMETRY_GRACE_SECONDS more, for late batches); on a
 * miss the database answers once and the answer is cached. Values: "<tenantId>:1" accepting, "<tenantId>:0"
 * ended past the grace period, "none" unknown id.
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

  async started(tenantId: string, sessionId: string): Promise<void> {
    await this.services.redis.set(this.keyOf(sessionId), `${tenantId}:1`);
  }

  async ended(tenantId: string, sessionId: string): Promise<void> {
    await this.services.redis.set(this.keyOf(sessionId), `${tenantId}:1`, 'EX', Math.max(1, this.services.config.TELEMETRY_GRACE_SECONDS));
  }

  /** 404 for an unknown session or another organisation's; 409 session_ended once the grace period is over. */
  async admit(tenantId: string, sessionId: string): Promise<void> {
    const memoKey = `${tenantId}/${sessionId}`;
    if ((this.memo.get(memoKey) ?? 0) > Date.now()) return;
    const state = (await this.services.redis.get(this.keyOf(sessionId))) ?? (await this.load(sessionId));
    if (state === `${tenantId}:1`) {
      if (this.memo.size >= MEMO_MAX_ENTRIES) this.memo.clear();
      this.memo.set(memoKey, Date.now() + Math.min(MEMO_MAX_MS, this.services.config.TELEMETRY_GRACE_SECONDS * 100));
      return;
    }
    if (state === `${tenantId}:0`) throw conflict('session_ended', 'This session has ended; its telemetry is no longer accepted');
    throw notFound('Session');
  }

  private async load(sessionId: string): Promise<string> {
    const { orm, redis, config } = this.services;
    // The id alone is the lookup here; the caller's tenant is compared with the one found.
    const session = await orm.em.fork().findOne(VrSession, { id: sessionId }, { filters: { tenant: false }, fields: ['tenantId', 'status', 'endedAt'] });
    if (!session) {
      await redis.set(this.keyOf(sessionId), 'none', 'EX', 60);
      return 'none';
    }
    const graceLeftMs = session.endedAt ? session.endedAt.getTime() + config.TELEMETRY_GRACE_SECONDS * 1000 - Date.now() : 0;
    if (session.status === 'running') {
      await redis.set(this.keyOf(sessionId), `${session.tenantId}:1`);
      return `${session.tenantId}:1`;
    }
    if (graceLeftMs > 0) {
      await redis.set(this.keyOf(sessionId), `${session.tenantId}:1`, 'PX', Math.ceil(graceLeftMs));
      return `${session.tenantId}:1`;
    }
    await redis.set(this.keyOf(sessionId), `${session.tenantId}:0`, 'EX', 3600);
    return `${session.tenantId}:0`;
  }
}
