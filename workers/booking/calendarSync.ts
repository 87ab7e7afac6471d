import { offerDueSyncs } from '../../domain/core/booking/external/offerDueSyncs';
import { syncConnection } from '../../domain/core/booking/external/syncConnection';
import { calendarSyncQueue, calendarSyncSweepQueue } from '../../queues/booking';
import { defineProcessor } from '../define';

/** Syncs one external calendar (domain/core/booking/external/syncConnection.ts); a failure is retried with backoff. */
export const calendarSyncProcessor = defineProcessor(calendarSyncQueue, {
  perform: (payload, { services }) => syncConnection(services, payload),
});

/** The clock's pass enqueueing the syncs that are due. */
export const calendarSyncSweepProcessor = defineProcessor(calendarSyncSweepQueue, {
  perform: async ({ slot }, { services }) => ({ offered: await offerDueSyncs(services, slot) }),
});
