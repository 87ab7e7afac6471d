import type { TenantContext } from '../../../context';
import { findCallerConnection, withCounts, type ConnectionState } from './connections';

/** One of the caller's external calendars, with its sync status (404 otherwise). */
export async function getConnection(ctx: TenantContext, id: string): Promise<ConnectionState> {
  const [state] = await withCounts(ctx, [await findCallerConnection(ctx, id)]);
  return state;
}
