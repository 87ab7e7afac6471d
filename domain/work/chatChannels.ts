import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { ChatChannel, ChatIntegrationToken, ChatMessage } from '../../entities/work/chat';
import { conflict, notFound } from '../../lib/errors';
import { lean, type Lean } from '../../lib/lean';
import { cursorWhere, toPage, type Page, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';

/** The organisation's channel, or 404 (another organisation's id included). */
export async function findChannel(ctx: TenantContext, id: string): Promise<ChatChannel> {
  const channel = await ctx.em.findOne(ChatChannel, { id });
  if (!channel) throw notFound('Channel');
  return channel;
}

/** Creates a channel; 409 `channel_exists` when the name is taken in the organisation (unique in the database). */
export async function createChannel(ctx: TenantContext, props: { name: string; topic?: string }): Promise<ChatChannel> {
  const channel = ctx.em.create(ChatChannel, { tenantId: ctx.tenantId, name: props.name, topic: props.topic ?? null, createdBy: ctx.userId });
  try {
    await ctx.em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw conflict('channel_exists', 'A channel of this name already exists');
    throw err;
  }
  return channel;
}

// A lean statement (docs/database-path.md).
const channelsPage = lean(ChatChannel, { where: '($1::uuid is null or id > $1)', orderBy: 'id asc', limitParam: '$2' });

/** The organisation's channels, oldest first. */
export const listChannels = async (ctx: TenantContext, props: PageProps): Promise<Page<Lean<ChatChannel>>> =>
  toPage(await channelsPage.all(ctx, props.cursor ?? null, props.limit + 1), props.limit);

/**
 * Deletes a channel with its integration tokens and messages, in one transaction. Tokens first: a post holding
 * its token row is waited for, and its message is then deleted with the others (postIntegrationMessage).
 */
export async function deleteChannel(ctx: TenantContext, id: string): Promise<void> {
  await ctx.em.transactional(async (em) => {
    const channel = await em.findOne(ChatChannel, { id });
    if (!channel) throw notFound('Channel');
    await em.nativeDelete(ChatIntegrationToken, { channelId: id });
    await em.nativeDelete(ChatMessage, { channelId: id });
    em.remove(channel);
  });
}

/** Messages of a channel, newest first. */
export async function listMessages(ctx: TenantContext, channelId: string, props: PageProps): Promise<Page<ChatMessage>> {
  await findChannel(ctx, channelId);
  const rows = await ctx.em.find(ChatMessage, { channelId, ...cursorWhere(props.cursor, 'desc') }, { orderBy: { id: 'desc' }, limit: props.limit + 1 });
  return toPage(rows, props.limit);
}
