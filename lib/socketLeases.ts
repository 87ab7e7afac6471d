import type { RedisClient } from './redis';
import { randomUUID } from 'node:crypto';
import type { Logger } from './logger';
import type { Keyspace } from './redis';

/** Which limit refused a socket. */
export type SocketCap = 'user' | 'address';

/** A socket's place in the counts; give it back with release(). */
export interface SocketLease {
  readonly id: string;
  readonly keys: readonly [string, string];
}

export interface SocketLimits {
  perUser: number;
  perAddress: number;
  leaseMs: number;
}

// KEYS: the user's and the address's sets; ARGV: lease id, user limit, address limit, lease ms. Leases are scored
// by the instant they lapse, on Redis's clock (every dyno reads the same one). 0: taken, 1/2: the user/address is full.
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i = 1, 2 do redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now) end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 1 end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then return 2 end
for i = 1, 2 do
  redis.call('ZADD', KEYS[i], now + tonumber(ARGV[4]), ARGV[1])
  redis.call('PEXPIRE', KEYS[i], ARGV[4])
end
return 0`;

// KEYS: sets; ARGV[1]: lease ms, ARGV[i + 1]: the lease held in KEYS[i]. A lease that lapsed meanwhile (Redis
// was unreachable longer than a lease) is put back: its socket is still open and counts again.
const RENEW = `
local t = redis.call('TIME')
local lapse = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[1])
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], lapse, ARGV[i + 1])
  redis.call('PEXPIRE', KEYS[i], ARGV[1])
end
return 0`;

/** Leases renewed by one script call (two keys each). */
const RENEW_BATCH = 250;

/**
 * How many WebSockets each user and each client address holds, counted across every dyno in Redis: one sorted
 * set per user and per address, whose members are the sockets' leases. A dyno renews the leases of its open
 * sockets every third of a lease (one script call per 250 sockets) and removes them when they close, so the
 * leases of a dyno that died stop counting once they lapse (`leaseMs`) instead of holding its users' places forever.
 */
export class SocketLeases {
  private readonly held = new Set<SocketLease>();
  private readonly dyno = randomUUID();
  private sequence = 0;
  private readonly renewer: NodeJS.Timeout;

  constructor(
    private readonly redis: RedisClient,
    private readonly key: Keyspace,
    private readonly limits: SocketLimits,
    private readonly logger: Logger,
  ) {
    this.renewer = setInterval(() => void this.renew(), Math.max(100, Math.floor(limits.leaseMs / 3)));
    this.renewer.unref();
  }

  /** Takes a place for a socket of this user from this address, or names the limit that is reached. Throws when Redis does not answer. */
  async acquire(userId: string, address: string): Promise<SocketLease | { refused: SocketCap }> {
    const lease: SocketLease = {
      id: `${this.dyno}:${++this.sequence}`,
      keys: [this.key('ws', 'user', userId), this.key('ws', 'address', address)],
    };
    const { perUser, perAddress, leaseMs } = this.limits;
    const result = Number(await this.redis.eval(ACQUIRE, 2, ...lease.keys, lease.id, perUser, perAddress, leaseMs));
    if (result === 1) return { refused: 'user' };
    if (result === 2) return { refused: 'address' };
    this.held.add(lease);
    return lease;
  }

  /** Gives the place back; if Redis does not answer, the lease lapses by itself. */
  release(lease: SocketLease): void {
    if (!this.held.delete(lease)) return;
    const [user, address] = lease.keys;
    this.redis
      .multi()
      .zrem(user, lease.id)
      .zrem(address, lease.id)
      .exec()
      .catch((err: Error) => this.logger.warn({ err: err.message }, 'socket lease not released (it lapses)'));
  }

  /** Stops renewing (shutdown): the open sockets are being closed, which releases their leases. */
  close(): void {
    clearInterval(this.renewer);
  }

  private async renew(): Promise<void> {
    const leases = [...this.held];
    for (let i = 0; i < leases.length; i += RENEW_BATCH) {
      const batch = leases.slice(i, i + RENEW_BATCH);
      const keys = batch.flatMap((l) => l.keys);
      const ids = batch.flatMap((l) => [l.id, l.id]);
      try {
        await this.redis.eval(RENEW, keys.length, ...keys, this.limits.leaseMs, ...ids);
      } catch (err) {
        // Redis down: the next round puts the leases back; meanwhile they may lapse (and count again then).
        this.logger.warn({ err: (err as Error).message, leases: leases.length }, 'socket leases not renewed');
        return;
      }
    }
  }
}
