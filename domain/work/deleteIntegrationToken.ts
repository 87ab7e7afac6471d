import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { deleteTokenKeepingMessages, findIntegrationToken } from './store';

/**
 * Revokes a token at once: its next call is refused. Its messages stay (tokenId becomes null). The token row
 * goes first: it waits for a post holding it, whose message the update then sees (postIntegrationMessage).
 */
export async function deleteIntegrationToken(ctx: TenantContext, id: string): Promise<void> {
  await ctx.em.transactional(async (em) => {
    const token = await findIntegrationToken(em, id);
    await deleteTokenKeepingMessages(em, id);
    audit(em, {
      action: 'chat.token_deleted',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'chat_integration_token',
      targetId: id,
      data: { channelId: token.channelId },
    });
  });
}
