import type { ModuleMount } from '../../http/mount';
import { IdParams } from '../../http/dtos';
import { bodyField, type RateLimitRule } from '../../http/rateLimit';
import { created } from '../../http/routes';
import { claimWaitlistHold } from '../../../domain/core/booking/claimWaitlistHold';
import { declineWaitlistHold, viewWaitlistHold } from '../../../domain/core/booking/declineWaitlistHold';
import { joinWaitlist } from '../../../domain/core/booking/joinWaitlist';
import { leaveWaitlist, viewWaitlistPlace } from '../../../domain/core/booking/leaveWaitlist';
import { listWaitlist } from '../../../domain/core/booking/listWaitlist';
import { openStore } from '../../../domain/core/booking/openStore';
import { bookingRead } from './appointments';
import { BookingSlugParams } from './dtos';
import {
  claimHoldDoc,
  declineHoldDoc,
  joinWaitlistDoc,
  leaveWaitlistDoc,
  listWaitlistDoc,
  waitlistHoldDoc,
  waitlistPlaceDoc,
} from './waitlist.docs';
import { JoinWaitlistBody, ListWaitlistQuery, WaitlistTokenParams } from './waitlistDtos';
import {
  WaitlistClaimView,
  WaitlistEntryView,
  WaitlistHoldView,
  WaitlistListView,
  WaitlistPlaceView,
} from './waitlistViews';

/**
 * The storefront waitlist: anonymous joins (rate limited per IP, e-mail and store), the mailed links (leave; a
 * held slot to claim or decline), and members' list of a service's waitlist.
 */
export function waitlistRoutes({ routes, services }: ModuleMount): void {
  const r = routes('Booking: waitlist');
  const limit = (name: string): RateLimitRule[] => [{ name, limit: services.config.RATE_LIMIT_ANON_PER_MINUTE }];
  const anon = { access: 'public' as const, rateLimits: limit('storefront-ip') };
  const { RATE_LIMIT_WAITLIST_PER_IP_HOUR, RATE_LIMIT_WAITLIST_PER_EMAIL_HOUR, RATE_LIMIT_WAITLIST_PER_STORE_HOUR } =
    services.config;
  const made = { windowSeconds: 3600, countSuccessesOnly: true };
  const join = {
    access: 'public' as const,
    rateLimits: [
      ...limit('storefront-waitlist-ip'),
      { name: 'storefront-waitlist-joins-ip', limit: RATE_LIMIT_WAITLIST_PER_IP_HOUR, ...made },
      {
        name: 'storefront-waitlist-joins-email',
        limit: RATE_LIMIT_WAITLIST_PER_EMAIL_HOUR,
        by: bodyField('email'),
        per: 'e-mail',
        ...made,
      },
      {
        name: 'storefront-waitlist-joins-store',
        limit: RATE_LIMIT_WAITLIST_PER_STORE_HOUR,
        by: (req) => String(req.params.publicSlug),
        per: 'store',
        ...made,
      },
    ] satisfies RateLimitRule[],
  };

  r.post(
    '/api/public/stores/:publicSlug/waitlist',
    {
      ...join,
      summary: 'Join the waitlist of a full day',
      description: joinWaitlistDoc,
      params: BookingSlugParams,
      body: JoinWaitlistBody,
      response: WaitlistPlaceView,
      status: 201,
      errors: { 409: '`slots_available`, `already_waiting`' },
    },
    async ({ params, body }) => {
      const store = await openStore(services, params.publicSlug);
      return created(WaitlistPlaceView.from(await joinWaitlist(store, body)));
    },
  );

  r.get(
    '/api/public/stores/:publicSlug/waitlist/:token',
    {
      ...anon,
      summary: 'A waitlist place by its leave token',
      description: waitlistPlaceDoc,
      params: WaitlistTokenParams,
      response: WaitlistPlaceView,
    },
    async ({ params }) =>
      WaitlistPlaceView.from(await viewWaitlistPlace(await openStore(services, params.publicSlug), params.token)),
  );

  r.delete(
    '/api/public/stores/:publicSlug/waitlist/:token',
    {
      ...anon,
      summary: 'Leave the waitlist by the leave token',
      description: leaveWaitlistDoc,
      params: WaitlistTokenParams,
      response: WaitlistPlaceView,
    },
    async ({ params }) =>
      WaitlistPlaceView.from(await leaveWaitlist(await openStore(services, params.publicSlug), params.token)),
  );

  r.get(
    '/api/public/stores/:publicSlug/waitlist-holds/:token',
    {
      ...anon,
      summary: 'A held slot by its hold token',
      description: waitlistHoldDoc,
      params: WaitlistTokenParams,
      response: WaitlistHoldView,
    },
    async ({ params }) =>
      WaitlistHoldView.from(await viewWaitlistHold(await openStore(services, params.publicSlug), params.token)),
  );

  r.post(
    '/api/public/stores/:publicSlug/waitlist-holds/:token/claim',
    {
      ...anon,
      summary: 'Claim a held slot: book it',
      description: claimHoldDoc,
      params: WaitlistTokenParams,
      response: WaitlistClaimView,
      status: 201,
      errors: { 409: '`hold_claimed`, `hold_expired`' },
    },
    async ({ params }) =>
      created(
        WaitlistClaimView.from(await claimWaitlistHold(await openStore(services, params.publicSlug), params.token)),
      ),
  );

  r.post(
    '/api/public/stores/:publicSlug/waitlist-holds/:token/decline',
    {
      ...anon,
      summary: 'Decline a held slot: the next in line gets it',
      description: declineHoldDoc,
      params: WaitlistTokenParams,
      response: WaitlistHoldView,
      errors: { 409: '`hold_claimed`, `hold_expired`' },
    },
    async ({ params }) =>
      WaitlistHoldView.from(await declineWaitlistHold(await openStore(services, params.publicSlug), params.token)),
  );

  r.get(
    '/api/rdv/services/:id/waitlist',
    {
      ...bookingRead,
      summary: "A service's waitlist",
      description: listWaitlistDoc,
      params: IdParams,
      query: ListWaitlistQuery,
      response: WaitlistListView,
    },
    async ({ ctx, params, query }) => ({
      items: (await listWaitlist(ctx, params.id, query)).map(WaitlistEntryView.from),
    }),
  );
}
