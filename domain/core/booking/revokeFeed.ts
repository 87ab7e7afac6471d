import type { TenantContext } from '../../context';
import { feedOwner } from './feedAddress';
import { deleteFeedOfUser } from './store/calendar';

/** Revokes the caller's feed address (the next sync-info makes a new one). */
export const revokeFeed = (ctx: TenantContext): Promise<void> => deleteFeedOfUser(ctx.em, feedOwner(ctx));
