import { offerWaitlist } from '../../domain/core/booking/offerWaitlist';
import { sweepWaitlist } from '../../domain/core/booking/sweepWaitlist';
import { bookingWaitlistQueue, bookingWaitlistSweepQueue } from '../../queues/booking';
import { defineProcessor } from '../define';

/** Offers the freed slots of a day to its waitlist (domain/core/booking/offerWaitlist.ts). */
export const bookingWaitlistProcessor = defineProcessor(bookingWaitlistQueue, {
  perform: async (payload, { services }) => ({ offered: await offerWaitlist(services, payload) }),
});

/** The clock's pass: expired holds pass to the next in line, passed days close (domain/core/booking/sweepWaitlist.ts). */
export const bookingWaitlistSweepProcessor = defineProcessor(bookingWaitlistSweepQueue, {
  perform: async (_payload, { services }) => sweepWaitlist(services),
});
