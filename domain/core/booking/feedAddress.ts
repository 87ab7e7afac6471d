import { createHmac } from 'node:crypto';
import type { CalendarFeed } from '../../../entities/core/calendar';
import { forbidden } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import type { Services } from '../../services';
import { memberEmail } from './store/calendar';

/**
 * The feed's secret is derived (HMAC with a key of its own, from JWT_SECRET) from the feed row's id, so
 * sync-info can show the address again without storing it; the row stores its SHA-256 only, which the feed
 * route compares. Rotating deletes the row and makes another: a new id, a new secret, the old address dead.
 */
export const feedSecret = (services: Services, feedId: string) =>
  createHmac('sha256', services.deriveSecret('calendar-feed')).update(feedId).digest('base64url');

export interface SyncInfo {
  feedUrl: string;
  feedCreatedAt: Date;
  caldav: { url: string; username: string } | null;
}

/** The acting member, whose feed it is (403 for system work). */
export const feedOwner = (ctx: TenantContext): string => {
  if (!ctx.userId) throw forbidden('permission_denied', 'A calendar feed belongs to a member');
  return ctx.userId;
};

/**
 * A feed's address, and the CalDAV details: the server's discovery root (`/dav/` of CALDAV_URL, else of
 * PUBLIC_URL) and the user name (the e-mail); the password is an app password of scope `caldav`.
 */
export async function presentFeed(ctx: TenantContext, feed: CalendarFeed): Promise<SyncInfo> {
  const { config } = ctx.services;
  const base = config.PUBLIC_URL.replace(/\/$/, '');
  const email = await memberEmail(ctx.em, feedOwner(ctx));
  const caldav: SyncInfo['caldav'] = { url: `${(config.CALDAV_URL || base).replace(/\/$/, '')}/dav/`, username: email };
  return {
    feedUrl: `${base}/api/calendar/feed/${feed.id}.${feedSecret(ctx.services, feed.id)}.ics`,
    feedCreatedAt: feed.createdAt,
    caldav,
  };
}
