import { isUUID } from 'class-validator';
import type { CalendarConnection } from '../../../../entities/core/calendar';
import { notFound } from '../../../../lib/errors';
import type { TenantContext } from '../../../context';
import { calendarSyncQueue } from '../../../../queues/booking';
import { caller } from '../calendarEventRules';
import { objectCounts, ownConnection } from '../store/connections';

/** Shared helpers of external calendar connections. */

/** A connection and how many objects of it are stored. */
export interface ConnectionState {
  connection: CalendarConnection;
  objects: number;
}

/** One of the caller's connections; another member's, a malformed id or another organisation's: 404. */
export async function findCallerConnection(ctx: TenantContext, id: string): Promise<CalendarConnection> {
  if (!isUUID(id)) throw notFound('Calendar connection');
  const found = await ownConnection(ctx.em, caller(ctx), id);
  if (!found) throw notFound('Calendar connection');
  return found;
}

export async function withCounts(ctx: TenantContext, connections: CalendarConnection[]): Promise<ConnectionState[]> {
  const counts = await objectCounts(
    ctx.em,
    ctx.tenantId,
    connections.map((c) => c.id),
  );
  return connections.map((connection) => ({ connection, objects: counts.get(connection.id) ?? 0 }));
}

/** The job id of a sync: per connection and occasion (BullMQ ids may not contain ":"). */
export const syncJobId = (connectionId: string, occasion: string): string => `calsync.${connectionId}.${occasion}`;

export { calendarSyncQueue };
