import type { ChatMessage } from '../../entities/work/chat';
import { toPage, type Page, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { findChannel, messagesNewestFirst } from './store';

/** Messages of a channel, newest first. */
export async function listMessages(
  ctx: TenantContext,
  channelId: string,
  props: PageProps,
): Promise<Page<ChatMessage>> {
  await findChannel(ctx.em, channelId);
  return toPage(await messagesNewestFirst(ctx.em, channelId, props), props.limit);
}
