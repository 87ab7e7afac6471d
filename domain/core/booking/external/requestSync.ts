import type { TenantContext } from '../../../context';
import { calendarSyncQueue, findCallerConnection, syncJobId } from './connections';

/** The caller asks for a sync of one of their external calendars now (at most one queued a second). */
export async function requestSync(ctx: TenantContext, id: string): Promise<void> {
  const connection = await findCallerConnection(ctx, id);
  await ctx.services.queues.add(
    calendarSyncQueue,
    { tenantId: ctx.tenantId, connectionId: connection.id },
    { jobId: syncJobId(connection.id, `asked-${Math.floor(Date.now() / 1000)}`) },
  );
}
