import { sendDueReminders } from '../../domain/core/booking/reminders';
import { bookingRemindersQueue } from '../../queues/booking';
import { defineProcessor } from '../define';

/** Mails the appointment reminders that are due (domain/core/booking/reminders.ts). */
export const bookingRemindersProcessor = defineProcessor(bookingRemindersQueue, {
  perform: async (_payload, { services }) => ({ reminded: await sendDueReminders(services) }),
});
