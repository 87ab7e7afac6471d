import { LockMode } from '@mikro-orm/core';
import { ChatIntegrationToken, ChatMessage } from '../../entities/work/chat';
import { unauthorized, notFound } from '../../lib/errors';
import { cursorWhere, toPage, type Page, type PageProps } from '../../lib/pagination';
import { hashToken, newOpaqueToken } from '../../lib/tokens';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import type { Services } from '../services';
import { findChannel } from './chatChannels';

/** Integration tokens look like `pci_<43 base64url>` (256 random bits); `prefix` is its first 12 characters. */
const TOKEN = /^pci_[A-Za-z0-9_-]{43}$/;

export interface CreatedIntegrationToken {
  token: ChatIntegrationToken;
  /** The token itself: returned this once, only its hash is stored. */
  secret: string;
}

/** Issues a token that posts into the channel. */
export async function createIntegrationToken(ctx: TenantContext, channelId: string, props: { label: string }): Promise<CreatedIntegrationToken> {
  await findChannel(ctx, channelId);
  const secret = `pci_${newOpaqueToken(32)}`;
  const token = await ctx.em.transactional(async (em) => {
    const row = em.create(ChatIntegrationToken, { tenantId: ctx.tenantId, channelId, label: props.label.trim(), prefix: secret.slice(0, 12), tokenHash: hashToken(secret), createdBy: ctx.userId });
    audit(em, { action: 'chat.token_created', actorId: ctx.userId, tenantId: ctx.tenantId, targetType: 'chat_integration_token', targetId: row.id, data: { channelId, label: row.label, prefix: row.prefix } });
    return row;
  });
  return { token, secret };
}

export async function listIntegrationTokens(ctx: TenantContext, channelId: string, props: PageProps): Promise<Page<ChatIntegrationToken>> {
  await findChannel(ctx, channelId);
  return toPage(await ctx.em.find(ChatIntegrationToken, { channelId, ...cursorWhere(props.cursor, 'asc') }, { orderBy: { id: 'asc' }, limit: props.limit + 1 }), props.limit);
}

/**
 * Revokes a token at once: its next call is refused. Its messages stay (tokenId becomes null). The token row
 * goes first: it waits for a post holding it, whose message the update below then sees (postIntegrationMessage).
 */
export async function deleteIntegrationToken(ctx: TenantContext, id: string): Promise<void> {
  await ctx.em.transactional(async (em) => {
    const token = await em.findOne(ChatIntegrationToken, { id });
    if (!token) throw notFound('Integration token');
    await em.nativeDelete(ChatIntegrationToken, { id });
    await em.nativeUpdate(ChatMessage, { tokenId: id }, { tokenId: null });
    audit(em, { action: 'chat.token_deleted', actorId: ctx.userId, tenantId: ctx.tenantId, targetType: 'chat_integration_token', targetId: id, data: { channelId: token.channelId } });
  });
}

/**
 * Posts a message with an integration token: a malformed, unknown or deleted token is refused with 401
 * `integration_token_invalid` and nothing is stored. The token names the organisation and the channel.
 * The token row stays locked until the message is committed, so a deletion of the token or its channel
 * (which deletes the token row first) either refuses this post or sees and removes its message: no orphan.
 */
export async function postIntegrationMessage(services: Services, secret: string | undefined, props: { text: string; username?: string }): Promise<ChatMessage> {
  const refused = () => unauthorized('integration_token_invalid', 'The integration token is not valid');
  if (!secret || !TOKEN.test(secret)) throw refused();
  return services.orm.em.fork().transactional(async (em) => {
    const token = await em.findOne(ChatIntegrationToken, { tokenHash: hashToken(secret) }, { filters: { tenant: false }, lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!token) throw refused();
    const message = em.create(ChatMessage, { tenantId: token.tenantId, channelId: token.channelId, tokenId: token.id, authorId: null, author: props.username ?? token.label, text: props.text });
    token.lastUsedAt = new Date();
    return message;
  });
}
