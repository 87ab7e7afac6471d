import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { ChatChannel } from '../../entities/work/chat';
import { conflict } from '../../lib/errors';
import type { TenantContext } from '../context';

/** Creates a channel; 409 `channel_exists` when the name is taken in the organisation (unique in the database). */
export async function createChannel(ctx: TenantContext, props: { name: string; topic?: string }): Promise<ChatChannel> {
  const channel = ctx.em.create(ChatChannel, {
    tenantId: ctx.tenantId,
    name: props.name,
    topic: props.topic ?? null,
    createdBy: ctx.userId,
  });
  try {
    await ctx.em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException)
      throw conflict('channel_exists', 'A channel of this name already exists');
    throw err;
  }
  return channel;
}
