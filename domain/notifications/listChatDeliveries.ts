import type { ChatMessage } from '../../entities/work/chat';
import type { Lean } from '../../lib/lean';
import { toPage, type Page, type PageProps } from '../../lib/pagination';
import type { Services } from '../services';
import { chatDeliveriesNewestFirst } from './store';

/** Messages chat integrations delivered (posted with a token; the token may have been deleted since), newest first. */
export async function listChatDeliveries(
  services: Services,
  q: PageProps & { tenantId?: string },
): Promise<Page<Lean<ChatMessage>>> {
  return toPage(
    await chatDeliveriesNewestFirst(services, {
      tenantId: q.tenantId ?? null,
      before: q.cursor ?? null,
      limit: q.limit + 1,
    }),
    q.limit,
  );
}
