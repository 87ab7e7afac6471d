import type { ModuleMount } from '../../http/mount';
import { bodyField, type RateLimitRule } from '../../http/rateLimit';
import { created } from '../../http/routes';
import type { Appointment } from '../../../entities/core/booking';
import { DEFAULT_AVAILABILITY_DAYS } from '../../../domain/core/booking/availability';
import { bookOnline, bookingByToken, cancelByToken, openStore, rescheduleByToken, storeAvailability, storeCatalogue, type Store } from '../../../domain/core/booking/storefront';
import { findService, findStaff } from '../../../domain/core/booking/catalogue';
import { BookingAvailabilityQuery, BookingManageParams, BookingSlugParams, PublicBookingBody, PublicRescheduleBody } from './dtos';
import { storefrontView, StorefrontBookingCreatedView, StorefrontBookingView, StorefrontView } from './storefrontViews';
import { BookingAvailabilityView, BookingSlotView } from './views';

async function present(store: Store, a: Appointment): Promise<StorefrontBookingView> {
  const [service, staff] = await Promise.all([findService(store.ctx.em, a.serviceId), findStaff(store.ctx.em, a.staffId)]);
  return StorefrontBookingView.from(a, service, staff);
}

/**
 * /api/public/stores/{publicSlug}: the anonymous storefront of a published business. Every route is rate
 * limited per IP and answers 404 for an unknown, unpublished or suspended store.
 */
export function storefrontRoutes({ routes, services }: ModuleMount): void {
  const r = routes('Booking: public storefront');
  const limit = (name: string): RateLimitRule[] => [{ name, limit: services.config.RATE_LIMIT_ANON_PER_MINUTE }];
  const anon = { access: 'public' as const, rateLimits: limit('storefront-ip') };
  // Bookings made (refused ones cost nothing) per address, attendee e-mail and store an hour: one stranger cannot
  // take a store's day or mail one inbox over and over, nor many strangers flood one store.
  const { RATE_LIMIT_BOOKINGS_PER_IP_HOUR, RATE_LIMIT_BOOKINGS_PER_EMAIL_HOUR, RATE_LIMIT_BOOKINGS_PER_STORE_HOUR } = services.config;
  const made = { windowSeconds: 3600, countSuccessesOnly: true };
  const bookingLimits: RateLimitRule[] = [
    ...limit('storefront-book-ip'),
    { name: 'storefront-bookings-ip', limit: RATE_LIMIT_BOOKINGS_PER_IP_HOUR, ...made },
    { name: 'storefront-bookings-email', limit: RATE_LIMIT_BOOKINGS_PER_EMAIL_HOUR, by: bodyField('email'), per: 'attendee e-mail', ...made },
    { name: 'storefront-bookings-store', limit: RATE_LIMIT_BOOKINGS_PER_STORE_HOUR, by: (req) => String(req.params.publicSlug), per: 'store', ...made },
  ];
  const booking = { access: 'public' as const, rateLimits: bookingLimits };
  const manage = 'The manage token is a capability: whoever holds it (from the booking answer or the confirmation mail) may see, cancel or reschedule that one booking.';

  r.get(
    '/api/public/stores/:publicSlug',
    {
      ...anon,
      summary: 'A storefront: business profile, services, staff',
      description: 'The public profile of a published business with its active services (and their groups) and its active staff\'s public names. No organisation id, no staff contact details.',
      params: BookingSlugParams,
      response: StorefrontView,
    },
    async ({ params }) => {
      const store = await openStore(services, params.publicSlug);
      return storefrontView(store.business, await storeCatalogue(store));
    },
  );

  r.get(
    '/api/public/stores/:publicSlug/availability',
    {
      ...anon,
      summary: 'Free slots of a service',
      description:
        'Slots on a 15-minute grid where the service fits the staff member\'s working time (HR schedule and leave when linked to an employee, else their weekly hours), clear of appointments (with buffers) and busy events, no sooner than the minimum notice. Without staffId each slot lists every free staff member. `from` and `to` lie within years 1900 to 9998 (400 otherwise); `to` defaults to 7 days after `from` (the week a storefront shows; a month of a 20-person team is ~770 slots listing their staff, several hundred kB); at most 62 days.',
      params: BookingSlugParams,
      query: BookingAvailabilityQuery,
      response: BookingAvailabilityView,
    },
    async ({ params, query }) => {
      const store = await openStore(services, params.publicSlug);
      const from = new Date(query.from);
      const to = query.to ? new Date(query.to) : new Date(from.getTime() + DEFAULT_AVAILABILITY_DAYS * 86_400_000);
      const slots = await storeAvailability(store, { serviceId: query.serviceId, staffId: query.staffId, from, to });
      return { timeZone: store.business.timeZone, slots: BookingSlotView.list(slots) };
    },
  );

  r.post(
    '/api/public/stores/:publicSlug/bookings',
    {
      ...booking,
      summary: 'Book online',
      description:
        'start must be a slot the availability route offers (else 409 `slot_taken`); without staffId the first free staff member takes it. The customer is found by e-mail or created, in one transaction with the appointment and its confirmation mail: a refused booking (409) creates no customer. Answers a reference and the manage token (once; it is also mailed with the confirmation). Concurrent bookings of one slot: exactly one wins, the others get 409 `slot_taken`. Bookings made are limited per client address (RATE_LIMIT_BOOKINGS_PER_IP_HOUR), per attendee e-mail (RATE_LIMIT_BOOKINGS_PER_EMAIL_HOUR) and per store (RATE_LIMIT_BOOKINGS_PER_STORE_HOUR) an hour, across dynos; refused ones (4xx) do not count; over a limit 429 `rate_limited` with Retry-After (seconds until that counter resets). The confirmation mail counts toward its recipient\'s hourly cap (MAIL_RECIPIENT_CAP_PER_HOUR): past it the booking stands, unmailed, and the answer is the same.',
      params: BookingSlugParams,
      body: PublicBookingBody,
      response: StorefrontBookingCreatedView,
      status: 201,
      errors: { 409: '`slot_taken`' },
    },
    async ({ params, body }) => {
      const store = await openStore(services, params.publicSlug);
      const booked = await bookOnline(store, { ...body, start: new Date(body.start) });
      const view: StorefrontBookingCreatedView = { ...(await present(store, booked.appointment)), manageToken: booked.manageToken };
      return created(view);
    },
  );

  r.get('/api/public/stores/:publicSlug/bookings/:token', { ...anon, summary: 'A booking by its manage token', description: manage, params: BookingManageParams, response: StorefrontBookingView }, async ({ params }) => {
    const store = await openStore(services, params.publicSlug);
    return present(store, await bookingByToken(store, params.token));
  });

  r.delete(
    '/api/public/stores/:publicSlug/bookings/:token',
    {
      ...anon,
      summary: 'Cancel a booking by its manage token',
      description: `${manage} DELETE cancels (the booking is kept, cancelled; again: no change) and answers it. After its start: 409 \`booking_started\`; completed or no-show: 409 \`invalid_transition\`.`,
      params: BookingManageParams,
      response: StorefrontBookingView,
      errors: { 409: '`booking_started`, `invalid_transition`' },
    },
    async ({ params }) => {
      const store = await openStore(services, params.publicSlug);
      return present(store, await cancelByToken(store, params.token));
    },
  );

  r.patch(
    '/api/public/stores/:publicSlug/bookings/:token',
    {
      ...anon,
      summary: 'Reschedule a booking by its manage token',
      description: `${manage} PATCH moves it to another free slot of the same service and staff member (404 when either is no longer offered; 409 \`slot_taken\` when not free; 409 \`booking_started\` after its start, \`invalid_transition\` when cancelled).`,
      params: BookingManageParams,
      body: PublicRescheduleBody,
      response: StorefrontBookingView,
      errors: { 409: '`slot_taken`, `booking_started`, `invalid_transition`' },
    },
    async ({ params, body }) => {
      const store = await openStore(services, params.publicSlug);
      return present(store, await rescheduleByToken(store, params.token, new Date(body.start)));
    },
  );
}
