import { LockMode } from '@mikro-orm/core';
import { WaitlistEntry, type WaitlistStatus } from '../../../../entities/core/waitlist';
import type { Em } from '../../../../lib/db';

/** Statements of the storefront waitlist (entities/core/waitlist.ts). */

/** The first waiting entry of a service's day in queue order, locked; entries other passes hold are skipped. */
export async function lockNextWaiting(em: Em, serviceId: string, day: string): Promise<WaitlistEntry | null> {
  const [first] = await em.find(
    WaitlistEntry,
    { serviceId, day, status: 'waiting' },
    { orderBy: { createdAt: 'asc', id: 'asc' }, limit: 1, lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE },
  );
  return first ?? null;
}

/** The entry a token hash names (leave or hold), locked for the caller's transaction. */
export const lockEntryByToken = (em: Em, kind: 'leave' | 'hold', hash: string): Promise<WaitlistEntry | null> =>
  em.findOne(WaitlistEntry, kind === 'leave' ? { leaveTokenHash: hash } : { holdTokenHash: hash }, {
    lockMode: LockMode.PESSIMISTIC_WRITE,
  });

/** The entry a token hash names, unlocked (a read). */
export const entryByToken = (em: Em, kind: 'leave' | 'hold', hash: string): Promise<WaitlistEntry | null> =>
  em.findOne(WaitlistEntry, kind === 'leave' ? { leaveTokenHash: hash } : { holdTokenHash: hash });

/** Whether anyone waits for a day of the service between two dates (inclusive): a freed slot is worth a pass. */
export async function anyoneWaiting(em: Em, tenantId: string, serviceId: string, from: string, to: string) {
  const rows = await em.execute<{ one: number }[]>(
    `select 1 as one from booking_waitlist_entries where tenant_id = ? and service_id = ? and status = 'waiting' and day between ?::date and ?::date limit 1`,
    [tenantId, serviceId, from, to],
  );
  return rows.length > 0;
}

/** Ends the offers of a day whose hold was cancelled by someone else (a member): `expired`; how many. */
export async function endReleasedOffers(em: Em, tenantId: string, serviceId: string, day: string): Promise<number> {
  const rows = await em.execute<{ id: string }[]>(
    `update booking_waitlist_entries e set status = 'expired', ended_at = now(), updated_at = now()
     from booking_appointments a
     where e.tenant_id = ? and e.service_id = ? and e.day = ?::date and e.status = 'offered'
       and a.id = e.hold_appointment_id and a.status <> 'held'
     returning e.id`,
    [tenantId, serviceId, day],
  );
  return rows.length;
}

/** Closes the waiting entries of a passed day of a service; how many. */
export async function closeWaitingOfDay(em: Em, tenantId: string, serviceId: string, day: string): Promise<number> {
  const rows = await em.execute<{ id: string }[]>(
    `update booking_waitlist_entries set status = 'closed', ended_at = now(), updated_at = now()
     where tenant_id = ? and service_id = ? and day = ?::date and status = 'waiting' returning id`,
    [tenantId, serviceId, day],
  );
  return rows.length;
}

/** A day whose hold ended: its waitlist is offered the slot again. */
export interface EndedHoldDay {
  tenant_id: string;
  service_id: string;
  day: string;
}

/**
 * Ends up to `limit` offers whose hold expired by `now` (`expired`) and frees their held appointments (cancelled),
 * in one statement; the rows locked with SKIP LOCKED (a claim in progress holds its entry, and wins). Crosses
 * tenants (the clock's pass covers every organisation). Answers the days concerned, once each.
 */
export function endExpiredHolds(em: Em, now: Date, limit: number): Promise<EndedHoldDay[]> {
  return em.execute<EndedHoldDay[]>(
    `with due as (
       select id from booking_waitlist_entries where status = 'offered' and hold_expires_at <= ?
       order by hold_expires_at limit ? for update skip locked),
     ended as (
       update booking_waitlist_entries e set status = 'expired', ended_at = ?, updated_at = ? from due where e.id = due.id
       returning e.tenant_id, e.service_id, e.day, e.hold_appointment_id),
     freed as (
       update booking_appointments a set status = 'cancelled', cancelled_at = ?, updated_at = ?
       from ended where a.id = ended.hold_appointment_id and a.status = 'held' returning a.id)
     -- freed runs whether or not it is read (PostgreSQL runs every data-modifying WITH to completion).
     select distinct e.tenant_id, e.service_id, e.day::text as day from ended e`,
    [now, limit, now, now, now, now],
  );
}

/** Closes waiting entries of days before `beforeDay` (every zone's day has passed by then); how many. Crosses tenants. */
export async function closePassedDays(em: Em, beforeDay: string): Promise<number> {
  const rows = await em.execute<{ id: string }[]>(
    `update booking_waitlist_entries set status = 'closed', ended_at = now(), updated_at = now()
     where status = 'waiting' and day < ?::date returning id`,
    [beforeDay],
  );
  return rows.length;
}

/** A service's waitlist as staff see it: by day, then queue order. */
export interface WaitlistRow {
  id: string;
  day: string;
  name: string;
  email: string;
  phone: string | null;
  status: WaitlistStatus;
  created_at: Date;
  hold_appointment_id: string | null;
  hold_expires_at: Date | null;
}

export function waitlistOf(
  em: Em,
  tenantId: string,
  serviceId: string,
  filter: { day?: string; status?: WaitlistStatus; limit: number },
): Promise<WaitlistRow[]> {
  return em.execute<WaitlistRow[]>(
    `select id, day::text as day, name, email, phone, status, created_at, hold_appointment_id, hold_expires_at
     from booking_waitlist_entries
     where tenant_id = ? and service_id = ? and (?::date is null or day = ?::date) and (?::text is null or status = ?::text)
     order by day, created_at, id limit ?`,
    [
      tenantId,
      serviceId,
      filter.day ?? null,
      filter.day ?? null,
      filter.status ?? null,
      filter.status ?? null,
      filter.limit,
    ],
  );
}
