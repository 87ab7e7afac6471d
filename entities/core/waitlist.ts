import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';
import { Appointment, BOOKING_SIZES, BookingService } from './booking';

export const waitlistStatuses = ['waiting', 'offered', 'booked', 'expired', 'declined', 'left', 'closed'] as const;
export type WaitlistStatus = (typeof waitlistStatuses)[number];

/**
 * A storefront visitor waiting for a full local day of a service. In queue order (created_at, id) the first
 * `waiting` entry is offered a slot that frees up: a `held` appointment (the no-overlap constraint of
 * booking_appointments keeps it from ever double booking) for `hold_expires_at`, claimed through a mailed token
 * (`booked`), or else `expired` / `declined`, and the next in line is offered. `left`: the visitor left through
 * the mailed link; `closed`: the day passed unserved. Only SHA-256 hashes of the tokens are stored.
 *
 * The database keeps: one live (waiting or offered) entry per service, day and e-mail; an offered entry has its
 * hold, its token and its expiry; one entry per hold appointment.
 */
export const WaitlistEntry = defineEntity({
  name: 'WaitlistEntry',
  tableName: 'booking_waitlist_entries',
  filters: tenantFilter,
  indexes: [
    {
      name: 'booking_waitlist_entries_live_unique',
      expression: `create unique index "booking_waitlist_entries_live_unique" on "booking_waitlist_entries" ("tenant_id", "service_id", "day", "email") where "status" in ('waiting', 'offered')`,
    },
    {
      name: 'booking_waitlist_entries_queue_index',
      expression: `create index "booking_waitlist_entries_queue_index" on "booking_waitlist_entries" ("tenant_id", "service_id", "day", "created_at", "id") where "status" = 'waiting'`,
    },
    {
      name: 'booking_waitlist_entries_hold_due_index',
      expression: `create index "booking_waitlist_entries_hold_due_index" on "booking_waitlist_entries" ("hold_expires_at") where "status" = 'offered'`,
    },
    { properties: ['tenantId', 'serviceId', 'day'] },
  ],
  uniques: [
    { properties: ['leaveTokenHash'] },
    { properties: ['holdTokenHash'] },
    { properties: ['holdAppointmentId'] },
  ],
  checks: [
    {
      name: 'booking_waitlist_entries_offer_check',
      expression: `status <> 'offered' or (hold_appointment_id is not null and hold_token_hash is not null and hold_expires_at is not null)`,
    },
  ],
  properties: {
    ...tenantColumns(),
    updatedAt: updatedAt(),
    serviceId: () => p.manyToOne(BookingService).mapToPk().fieldName('service_id').deleteRule('cascade'),
    /** The local day (business time zone) waited for. */
    day: p.string().columnType('date'),
    name: p.string().length(BOOKING_SIZES.attendeeName),
    /** Lower case. */
    email: p.string().length(BOOKING_SIZES.email),
    phone: p.string().length(BOOKING_SIZES.phone).nullable(),
    status: p.enum([...waitlistStatuses]).default('waiting'),
    leaveTokenHash: p.string().length(64),
    holdAppointmentId: () =>
      p.manyToOne(Appointment).mapToPk().fieldName('hold_appointment_id').deleteRule('set null').nullable(),
    holdTokenHash: p.string().length(64).nullable(),
    holdExpiresAt: p.datetime().nullable(),
    offeredAt: p.datetime().nullable(),
    endedAt: p.datetime().nullable(),
  },
});
export type WaitlistEntry = InferEntity<typeof WaitlistEntry>;
