import type { ModuleMount } from '../../http/mount';
import { bodyField, type RateLimitRule } from '../../http/rateLimit';
import { created } from '../../http/routes';
import { bookOnline } from '../../../domain/core/booking/bookOnline';
import { cancelByToken, rescheduleByToken, viewBooking } from '../../../domain/core/booking/manageBooking';
import { openStore } from '../../../domain/core/booking/openStore';
import { storeAvailability } from '../../../domain/core/booking/storeAvailability';
import type { StoreBooking } from '../../../domain/core/booking/storeBooking';
import { storeCatalogue } from '../../../domain/core/booking/storeCatalogue';
import {
  BookingAvailabilityQuery,
  BookingManageParams,
  BookingSlugParams,
  PublicBookingBody,
  PublicRescheduleBody,
} from './dtos';
import {
  availabilityDoc,
  bookOnlineDoc,
  cancelByTokenDoc,
  manageTokenDoc,
  rescheduleByTokenDoc,
  storefrontDoc,
} from './storefront.docs';
import { storefrontView, StorefrontBookingCreatedView, StorefrontBookingView, StorefrontView } from './storefrontViews';
import { BookingAvailabilityView, BookingSlotView } from './views';

const present = (b: StoreBooking): StorefrontBookingView =>
  StorefrontBookingView.from(b.appointment, b.service, b.staff);

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
  const { RATE_LIMIT_BOOKINGS_PER_IP_HOUR, RATE_LIMIT_BOOKINGS_PER_EMAIL_HOUR, RATE_LIMIT_BOOKINGS_PER_STORE_HOUR } =
    services.config;
  const made = { windowSeconds: 3600, countSuccessesOnly: true };
  const bookingLimits: RateLimitRule[] = [
    ...limit('storefront-book-ip'),
    { name: 'storefront-bookings-ip', limit: RATE_LIMIT_BOOKINGS_PER_IP_HOUR, ...made },
    {
      name: 'storefront-bookings-email',
      limit: RATE_LIMIT_BOOKINGS_PER_EMAIL_HOUR,
      by: bodyField('email'),
      per: 'attendee e-mail',
      ...made,
    },
    {
      name: 'storefront-bookings-store',
      limit: RATE_LIMIT_BOOKINGS_PER_STORE_HOUR,
      by: (req) => String(req.params.publicSlug),
      per: 'store',
      ...made,
    },
  ];
  const booking = { access: 'public' as const, rateLimits: bookingLimits };

  r.get(
    '/api/public/stores/:publicSlug',
    {
      ...anon,
      summary: 'A storefront: business profile, services, staff',
      description: storefrontDoc,
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
      description: availabilityDoc,
      params: BookingSlugParams,
      query: BookingAvailabilityQuery,
      response: BookingAvailabilityView,
    },
    async ({ params, query }) => {
      const store = await openStore(services, params.publicSlug);
      const range = { from: new Date(query.from), to: query.to ? new Date(query.to) : undefined };
      const slots = await storeAvailability(store, { serviceId: query.serviceId, staffId: query.staffId, ...range });
      return { timeZone: store.business.timeZone, slots: BookingSlotView.list(slots) };
    },
  );

  r.post(
    '/api/public/stores/:publicSlug/bookings',
    {
      ...booking,
      summary: 'Book online',
      description: bookOnlineDoc,
      params: BookingSlugParams,
      body: PublicBookingBody,
      response: StorefrontBookingCreatedView,
      status: 201,
      errors: { 409: '`slot_taken`' },
    },
    async ({ params, body }) => {
      const store = await openStore(services, params.publicSlug);
      const booked = await bookOnline(store, { ...body, start: new Date(body.start) });
      const { method, reason } = booked.assignment;
      const answer = { ...present(booked), assignment: { method, reason }, manageToken: booked.manageToken };
      return created(answer satisfies StorefrontBookingCreatedView);
    },
  );

  r.get(
    '/api/public/stores/:publicSlug/bookings/:token',
    {
      ...anon,
      summary: 'A booking by its manage token',
      description: manageTokenDoc,
      params: BookingManageParams,
      response: StorefrontBookingView,
    },
    async ({ params }) => present(await viewBooking(await openStore(services, params.publicSlug), params.token)),
  );

  r.delete(
    '/api/public/stores/:publicSlug/bookings/:token',
    {
      ...anon,
      summary: 'Cancel a booking by its manage token',
      description: cancelByTokenDoc,
      params: BookingManageParams,
      response: StorefrontBookingView,
      errors: { 409: '`booking_started`, `invalid_transition`' },
    },
    async ({ params }) => {
      return present(await cancelByToken(await openStore(services, params.publicSlug), params.token));
    },
  );

  r.patch(
    '/api/public/stores/:publicSlug/bookings/:token',
    {
      ...anon,
      summary: 'Reschedule a booking by its manage token',
      description: rescheduleByTokenDoc,
      params: BookingManageParams,
      body: PublicRescheduleBody,
      response: StorefrontBookingView,
      errors: { 409: '`slot_taken`, `booking_started`, `invalid_transition`' },
    },
    async ({ params, body }) => {
      return present(
        await rescheduleByToken(await openStore(services, params.publicSlug), params.token, new Date(body.start)),
      );
    },
  );
}
