import type { TenantContext } from '../../../context';
import { caller } from '../calendarEventRules';
import { ownConnections } from '../store/connections';
import { withCounts, type ConnectionState } from './connections';

/** The caller's external calendars, with their sync status. */
export async function listConnections(ctx: TenantContext): Promise<ConnectionState[]> {
  return withCounts(ctx, await ownConnections(ctx.em, caller(ctx)));
}
