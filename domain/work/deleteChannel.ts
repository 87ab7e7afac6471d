import type { TenantContext } from '../context';
import { deleteChannelContents, findChannel } from './store';

/**
 * Deletes a channel with its integration tokens and messages, in one transaction. Tokens first: a post holding
 * its token row is waited for, and its message is then deleted with the others (postIntegrationMessage).
 */
export async function deleteChannel(ctx: TenantContext, id: string): Promise<void> {
  await ctx.em.transactional(async (em) => {
    const channel = await findChannel(em, id);
    await deleteChannelContents(em, id);
    em.remove(channel);
  });
}
