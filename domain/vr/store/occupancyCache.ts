/**
 * Presence expiries of rooms as this process last read them from Redis, kept FRESH_MS: headsets poll
 * GET /runtime/rooms, and most polls then cost no Redis round trip. A room's occupancy is the count of its
 * expiries still ahead, so expiring presence is exact; only arrivals, departures and heartbeats made through
 * another dyno show up to FRESH_MS late. Changes made through this process drop the room's entry at once.
 */
const FRESH_MS = 1000;
const MAX_ROOMS = 10_000;
const cached = new Map<string, { until: number; expiries: number[] }>();

export const occupancyCache = {
  /** Presences unexpired at `now` of the room whose expiry set is `key`, or undefined when not fresh. */
  count(key: string, now: number): number | undefined {
    const entry = cached.get(key);
    if (!entry || entry.until <= now) return undefined;
    let present = 0;
    for (const expiry of entry.expiries) if (expiry > now) present++;
    return present;
  },
  remember(key: string, expiries: number[], now: number): void {
    if (cached.size >= MAX_ROOMS) cached.clear();
    cached.set(key, { until: now + FRESH_MS, expiries });
  },
  forget(key: string): void {
    cached.delete(key);
  },
};
