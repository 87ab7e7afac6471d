import { ChatIntegrationToken } from '../../entities/work/chat';
import { hashToken, newOpaqueToken } from '../../lib/tokens';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { findChannel } from './store';

export interface CreatedIntegrationToken {
  token: ChatIntegrationToken;
  /** The token itself: returned this once, only its hash is stored. */
  secret: string;
}

/** Issues a token that posts into the channel: `pci_<43 base64url>` (256 random bits); `prefix` is its first 12 characters. */
export async function createIntegrationToken(
  ctx: TenantContext,
  channelId: string,
  props: { label: string },
): Promise<CreatedIntegrationToken> {
  await findChannel(ctx.em, channelId);
  const secret = `pci_${newOpaqueToken(32)}`;
  const token = await ctx.em.transactional(async (em) => {
    const row = em.create(ChatIntegrationToken, {
      tenantId: ctx.tenantId,
      channelId,
      label: props.label.trim(),
      prefix: secret.slice(0, 12),
      tokenHash: hashToken(secret),
      createdBy: ctx.userId,
    });
    audit(em, {
      action: 'chat.token_created',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'chat_integration_token',
      targetId: row.id,
      data: { channelId, label: row.label, prefix: row.prefix },
    });
    return row;
  });
  return { token, secret };
}
