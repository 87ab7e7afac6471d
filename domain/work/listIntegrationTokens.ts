import type { ChatIntegrationToken } from '../../entities/work/chat';
import { toPage, type Page, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { findChannel, tokensOldestFirst } from './store';

/** A channel's integration tokens, oldest first (their hashes are never shown). */
export async function listIntegrationTokens(
  ctx: TenantContext,
  channelId: string,
  props: PageProps,
): Promise<Page<ChatIntegrationToken>> {
  await findChannel(ctx.em, channelId);
  return toPage(await tokensOldestFirst(ctx.em, channelId, props), props.limit);
}
