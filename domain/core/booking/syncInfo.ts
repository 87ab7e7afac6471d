import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { CalendarFeed } from '../../../entities/core/calendar';
import { hashToken } from '../../../lib/tokens';
import type { TenantContext } from '../../context';
import { feedOwner, feedSecret, presentFeed, type SyncInfo } from './feedAddress';
import { feedOfUser } from './store/calendar';

/** The caller's feed address (made on first call; concurrent first calls make one) and the CalDAV details when configured. */
export async function syncInfo(ctx: TenantContext): Promise<SyncInfo> {
  const userId = feedOwner(ctx);
  const existing = await feedOfUser(ctx.em, userId);
  if (existing) return presentFeed(ctx, existing);
  const feed = ctx.em.create(CalendarFeed, { tenantId: ctx.tenantId, userId, secretHash: '' });
  feed.secretHash = hashToken(feedSecret(ctx.services, feed.id));
  try {
    await ctx.em.flush();
  } catch (err) {
    if (!(err instanceof UniqueConstraintViolationException)) throw err;
    ctx.em.clear();
    return presentFeed(ctx, await ctx.em.findOneOrFail(CalendarFeed, { userId }));
  }
  return presentFeed(ctx, feed);
}
