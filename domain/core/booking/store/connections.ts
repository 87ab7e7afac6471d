import { CalendarConnection, CalendarExternalEvent } from '../../../../entities/core/calendar';
import type { Em } from '../../../../lib/db';

/** Statements of external calendar connections and the busy times read from them. */

/** A member's connection by id (null when it is not theirs, or not there). */
export const ownConnection = (em: Em, ownerId: string, id: string): Promise<CalendarConnection | null> =>
  em.findOne(CalendarConnection, { id, ownerId });

/** A member's connections, oldest first. */
export const ownConnections = (em: Em, ownerId: string): Promise<CalendarConnection[]> =>
  em.find(CalendarConnection, { ownerId }, { orderBy: { createdAt: 'asc', id: 'asc' } });

/** The busy-time counts of connections (id -> objects stored). */
export async function objectCounts(em: Em, tenantId: string, ids: string[]): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const rows = await em.execute<{ connection_id: string; n: number }[]>(
    `select connection_id, count(*)::int as n from calendar_external_events where tenant_id = ? and connection_id in (?) group by connection_id`,
    [tenantId, ids],
  );
  return new Map(rows.map((r) => [r.connection_id, Number(r.n)]));
}

/** The stored objects of a connection: href -> ETag. */
export async function storedEtags(em: Em, connectionId: string): Promise<Map<string, string>> {
  const rows = await em.find(CalendarExternalEvent, { connectionId }, { fields: ['href', 'etag'] });
  return new Map(rows.map((r) => [r.href, r.etag]));
}

/** What one external object gives: its first occurrence, whether it blocks time, and for a recurring one its rule. */
export interface ExternalObjectRow {
  href: string;
  etag: string;
  startAt: Date;
  endAt: Date;
  busy: boolean;
  recurring: boolean;
  recursUntil: Date | null;
  ical: string | null;
}

/**
 * Applies a sync in one transaction: objects upserted by (connection, href), `removed` hrefs deleted, the
 * connection marked ok. False when the connection is gone meanwhile (disconnected: nothing is written).
 */
export async function applySync(
  em: Em,
  tenantId: string,
  connection: Pick<CalendarConnection, 'id' | 'ownerId'>,
  rows: ExternalObjectRow[],
  removed: string[],
  now: Date,
): Promise<boolean> {
  return em.transactional(async (tx) => {
    // Locks the connection: a disconnect waits for the sync to commit (or the sync finds it gone).
    const [live] = await tx.execute<{ id: string }[]>(
      `select id from calendar_connections where id = ? and tenant_id = ? for update`,
      [connection.id, tenantId],
    );
    if (!live) return false;
    if (removed.length)
      await tx.execute(`delete from calendar_external_events where connection_id = ? and href in (?)`, [
        connection.id,
        removed,
      ]);
    for (const r of rows)
      await tx.execute(
        `insert into calendar_external_events (id, tenant_id, created_at, connection_id, owner_id, href, etag, start_at, end_at, busy, recurring, recurs_until, ical)
           values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           on conflict (connection_id, href) do update set etag = excluded.etag, start_at = excluded.start_at, end_at = excluded.end_at,
             busy = excluded.busy, recurring = excluded.recurring, recurs_until = excluded.recurs_until, ical = excluded.ical`,
        [
          tenantId,
          now,
          connection.id,
          connection.ownerId,
          r.href,
          r.etag,
          r.startAt,
          r.endAt,
          r.busy,
          r.recurring,
          r.recursUntil,
          r.ical,
        ],
      );
    await tx.execute(
      `update calendar_connections set status = 'ok', last_error = null, failures = 0, last_synced_at = ?, updated_at = ? where id = ?`,
      [now, now, connection.id],
    );
    return true;
  });
}

/** Records a failed sync on the connection (status error, its reason, one more failure in a row). */
export async function recordFailure(em: Em, tenantId: string, id: string, reason: string, now: Date): Promise<void> {
  await em.execute(
    `update calendar_connections set status = 'error', last_error = ?, failures = failures + 1, updated_at = ? where id = ? and tenant_id = ?`,
    [reason.slice(0, 1000), now, id, tenantId],
  );
}

/**
 * Connections of every organisation not synced for `minutes` (never synced first): what the clock offers. One that
 * keeps failing waits longer after each failure in a row (minutes x 2^failures, at most a day) since its last one.
 */
export async function dueConnections(
  em: Em,
  now: Date,
  minutes: number,
  limit: number,
): Promise<{ id: string; tenant_id: string }[]> {
  return em.execute<{ id: string; tenant_id: string }[]>(
    `select id, tenant_id from calendar_connections
       where (last_synced_at is null or last_synced_at < ?::timestamptz - make_interval(mins => ?))
         and (failures = 0 or updated_at < ?::timestamptz - least(make_interval(mins => ?) * power(2, least(failures, 20)), interval '1 day'))
       order by last_synced_at asc nulls first limit ?`,
    [now, minutes, now, minutes, limit],
  );
}
