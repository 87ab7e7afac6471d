import { defineQueue } from './define';

/** The clock's pass over due appointment reminders (one job per 5-minute slot; a pass mails each reminder once). */
export const bookingRemindersQueue = defineQueue<{ slot: string }>('booking-reminders', {
  concurrency: 1,
  defaults: { attempts: 3, removeOnComplete: { count: 100 } },
});
