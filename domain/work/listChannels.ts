import type { ChatChannel } from '../../entities/work/chat';
import type { Lean } from '../../lib/lean';
import { toPage, type Page, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { channelsOldestFirst } from './store';

/** The organisation's channels, oldest first. */
export const listChannels = async (ctx: TenantContext, props: PageProps): Promise<Page<Lean<ChatChannel>>> =>
  toPage(await channelsOldestFirst(ctx, props.cursor ?? null, props.limit + 1), props.limit);
