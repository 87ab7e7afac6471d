import type { TenantContext } from '../../../context';
import { findCallerConnection } from './connections';

/**
 * The caller disconnects an external calendar: the connection and every busy time read from it go (on delete
 * cascade), so the slots they blocked are offered again at once. A sync running meanwhile finds it gone.
 */
export async function disconnectCalendar(ctx: TenantContext, id: string): Promise<void> {
  const connection = await findCallerConnection(ctx, id);
  await ctx.em.removeAndFlush(connection);
}
