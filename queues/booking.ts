import { defineQueue } from './define';

/** The clock's pass over due appointment reminders (one job per 5-minute slot; a pass mails each reminder once). */
export const bookingRemindersQueue = defineQueue<{ slot: string }>('booking-reminders', {
  concurrency: 1,
  defaults: { attempts: 3, removeOnComplete: { count: 100 } },
});

/** One sync of a member's external calendar (domain/core/booking/external/syncConnection.ts). */
export interface CalendarSyncJob {
  tenantId: string;
  connectionId: string;
}

/**
 * Syncs of external calendars: idempotent (objects upsert by href, what the server no longer lists goes), so a
 * retry or a replay changes nothing twice. A failed sync is retried 4 times with exponential backoff (30 s, 1, 2,
 * 4 min), then offered again by the clock; the connection records each failure (status error, lastError).
 */
export const calendarSyncQueue = defineQueue<CalendarSyncJob>('calendar-sync', {
  concurrency: 2,
  defaults: {
    attempts: 5,
    backoff: { type: 'exponential', delay: 30_000 },
    removeOnComplete: { count: 500 },
    removeOnFail: { age: 24 * 3600 },
  },
});

/** The clock's pass (every 5 minutes) that enqueues the syncs of connections due (CALENDAR_SYNC_MINUTES). */
export const calendarSyncSweepQueue = defineQueue<{ slot: string }>('calendar-sync-sweep', {
  concurrency: 1,
  defaults: { attempts: 3, removeOnComplete: { count: 100 } },
});

/** A waitlist offer pass: a slot of `serviceId` may have freed up at `at` (domain/core/booking/offerWaitlist.ts). */
export interface WaitlistOfferJob {
  tenantId: string;
  serviceId: string;
  /** An instant of the local day whose waitlist is offered the free slots (ISO 8601). */
  at: string;
  /** The local day itself, when the writer knows it (the sweep does). */
  day?: string;
}

/**
 * Waitlist offer passes, staged with the change that freed a slot (a cancellation, a reschedule, a released hold):
 * idempotent (a pass offers only free slots, each held once by the no-overlap constraint), so a replay changes
 * nothing twice.
 */
export const bookingWaitlistQueue = defineQueue<WaitlistOfferJob>('booking-waitlist', {
  concurrency: 2,
  defaults: { attempts: 5, removeOnComplete: { count: 500 } },
});

/** The clock's pass over expired waitlist holds and passed days (every minute). */
export const bookingWaitlistSweepQueue = defineQueue<{ slot: string }>('booking-waitlist-sweep', {
  concurrency: 1,
  defaults: { attempts: 3, removeOnComplete: { count: 100 } },
});
