import { ChatMessage } from '../../entities/work/chat';
import { unauthorized } from '../../lib/errors';
import { hashToken } from '../../lib/tokens';
import type { Services } from '../services';
import { lockTokenByHash } from './store';

/** Integration tokens look like `pci_<43 base64url>` (createIntegrationToken). */
export const INTEGRATION_TOKEN = /^pci_[A-Za-z0-9_-]{43}$/;

/**
 * Posts a message with an integration token: a malformed, unknown or deleted token is refused with 401
 * `integration_token_invalid` and nothing is stored. The token names the organisation and the channel.
 * The token row stays locked until the message is committed, so a deletion of the token or its channel
 * (which deletes the token row first) either refuses this post or sees and removes its message: no orphan.
 */
export async function postIntegrationMessage(
  services: Services,
  secret: string | undefined,
  props: { text: string; username?: string },
): Promise<ChatMessage> {
  const refused = () => unauthorized('integration_token_invalid', 'The integration token is not valid');
  if (!secret || !INTEGRATION_TOKEN.test(secret)) throw refused();
  return services.orm.em.fork().transactional(async (em) => {
    const token = await lockTokenByHash(em, hashToken(secret));
    if (!token) throw refused();
    const message = em.create(ChatMessage, {
      tenantId: token.tenantId,
      channelId: token.channelId,
      tokenId: token.id,
      authorId: null,
      author: props.username ?? token.label,
      text: props.text,
    });
    token.lastUsedAt = new Date();
    return message;
  });
}
