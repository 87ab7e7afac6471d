import { DateTime } from 'luxon';
import type { MailMessage } from '../../../entities/platform/mail';
import { composeMail, dispatchMails } from '../../platform/mail';
import type { Services } from '../../services';
import { bookingReference } from './bookingReference';
import { claimDueReminders } from './store/reminders';

/** Reminders go out this long before the start. */
export const REMINDER_LEAD_HOURS = 24;
/** Appointments claimed by one pass (the clock runs every 5 minutes; a full batch runs again at once). */
const BATCH = 200;

/**
 * Mails the reminders that are due: live appointments with an attendee e-mail, starting within
 * REMINDER_LEAD_HOURS, booked at least that long ahead (a later booking's confirmation is recent enough) and not
 * reminded yet. One statement claims them (`reminder_sent_at` set, rows locked with SKIP LOCKED so concurrent
 * workers take disjoint sets) in the transaction that writes their mails to the outbox; each mail carries the
 * dedupe key `booking-reminder:<id>:<start>`, so no appointment is reminded twice for one time, whatever retries.
 * Rescheduling clears `reminder_sent_at`: the new time gets its own reminder. Returns how many were mailed.
 */
export async function sendDueReminders(services: Services, now = new Date()): Promise<number> {
  let total = 0;
  for (;;) {
    const mails: MailMessage[] = [];
    await services.orm.em.fork().transactional(async (em) => {
      const rows = await claimDueReminders(
        em,
        now,
        new Date(now.getTime() + REMINDER_LEAD_HOURS * 3_600_000),
        REMINDER_LEAD_HOURS,
        BATCH,
      );
      for (const r of rows) {
        const zone = r.time_zone ?? 'Europe/Paris';
        const when = DateTime.fromJSDate(new Date(r.start_at), { zone })
          .setLocale(r.locale ?? 'fr-FR')
          .toLocaleString(DateTime.DATETIME_FULL);
        mails.push(
          composeMail(em, services, {
            to: r.attendee_email,
            tenantId: r.tenant_id,
            dedupeKey: `booking-reminder:${r.id}:${new Date(r.start_at).getTime()}`,
            template: 'booking_reminder',
            data: {
              business: r.business_name ?? 'your appointment',
              service: r.service_name,
              when,
              reference: bookingReference(r.id),
              slug: r.published ? r.public_slug : null,
            },
          }),
        );
      }
    });
    await dispatchMails(services, mails);
    total += mails.length;
    if (mails.length < BATCH) return total;
  }
}
