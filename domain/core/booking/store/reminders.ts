import type { Em } from '../../../../lib/db';

/** A claimed reminder: the appointment, its attendee and what its mail says of the service and the business. */
export interface DueReminder {
  id: string;
  tenant_id: string;
  start_at: Date;
  attendee_email: string;
  service_name: string;
  business_name: string | null;
  public_slug: string | null;
  published: boolean | null;
  time_zone: string | null;
  locale: string | null;
}

/**
 * Claims up to `limit` live appointments with an attendee e-mail starting in (now, until], created at least
 * `leadHours` before their start and not reminded yet: one statement sets their `reminder_sent_at` to `now`,
 * the rows locked with SKIP LOCKED so that concurrent workers take disjoint sets. Run it in the transaction that
 * writes their mails. Crosses tenants (the clock's pass covers every organisation).
 */
export function claimDueReminders(
  em: Em,
  now: Date,
  until: Date,
  leadHours: number,
  limit: number,
): Promise<DueReminder[]> {
  return em.execute<DueReminder[]>(
    `with due as (
       select a.id from booking_appointments a
       where a.reminder_sent_at is null and a.status in ('booked', 'confirmed') and a.attendee_email is not null
         and a.start_at > ? and a.start_at <= ? and a.created_at <= a.start_at - make_interval(hours => ?)
       order by a.start_at limit ? for update skip locked),
     claimed as (
       update booking_appointments a set reminder_sent_at = ? from due where a.id = due.id
       returning a.id, a.tenant_id, a.start_at, a.attendee_email, a.service_id)
     select c.id, c.tenant_id, c.start_at, c.attendee_email, s.name as service_name, b.name as business_name, b.public_slug,
       (b.public_profile->>'published')::boolean as published, b.time_zone, b.locale
     from claimed c join booking_services s on s.id = c.service_id left join core_businesses b on b.tenant_id = c.tenant_id`,
    [now, until, leadHours, limit, now],
  );
}
