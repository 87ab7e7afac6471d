import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';
import { Customer } from './customer';

/**
 * Column sizes of the booking entities: the columns below and the request rules (api/core/booking/dtos.ts)
 * read them here, so a longer name is one change.
 */
export const BOOKING_SIZES = {
  name: 120,
  description: 2000,
  email: 254,
  phone: 32,
  attendeeName: 200,
  notes: 4000,
} as const;

/** Bounds of a service (minutes, people): checked by the database (below) and by the request rules alike. */
export const SERVICE_BOUNDS = {
  minDurationMinutes: 5,
  maxDurationMinutes: 1440,
  maxBufferMinutes: 720,
  maxCapacity: 1000,
} as const;
const B = SERVICE_BOUNDS;

/** A custom question a service asks at booking: free text or one of a few choices, required or not. */
export interface BookingQuestion {
  /** Stable key of the answer ("allergies"): [a-z0-9_-], at most 40. */
  id: string;
  label: string;
  kind: 'text' | 'choice';
  /** The choices of a `choice` question (at most 20). */
  options?: string[];
  required: boolean;
}

/** Bounds of the booking rules (days, appointments, questions): checked by the database and the request rules. */
export const RULE_BOUNDS = {
  maxAdvanceDays: 730,
  maxCapPerDay: 200,
  maxCapPerWeek: 1000,
  maxQuestions: 20,
  maxOptions: 20,
  maxAnswerLength: 1000,
  maxOverrides: 400,
} as const;

/** A staff member's round-robin priority (0 lowest to 4 highest) and weight (share of bookings): domain/core/booking/roundRobin.ts. */
export const ROUND_ROBIN_BOUNDS = {
  minPriority: 0,
  maxPriority: 4,
  priority: 2,
  minWeight: 1,
  maxWeight: 1000,
  weight: 100,
} as const;
const RR = ROUND_ROBIN_BOUNDS;

/** How a storefront booking's staff member was chosen (domain/core/booking/roundRobin.ts), kept on the appointment. */
export interface AppointmentAssignment {
  method: 'requested' | 'round_robin';
  reason:
    'requested' | 'only_available' | 'higher_priority' | 'fewer_bookings_for_weight' | 'least_recently_booked' | 'tie';
  /** Staff free at the slot that were ranked. */
  considered: number;
  priority: number;
  weight: number;
  /** The chosen one's live bookings of the service in the window (starting from windowDays ago) before this one. */
  recentBookings: number;
  windowDays: number;
}

/** A group of services on the storefront ("Haircuts", "Consultations"), in display order. */
export const ServiceGroup = defineEntity({
  name: 'ServiceGroup',
  tableName: 'booking_service_groups',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'sortOrder'] }],
  properties: {
    ...tenantColumns(),
    updatedAt: updatedAt(),
    name: p.string().length(BOOKING_SIZES.name),
    description: p.string().length(BOOKING_SIZES.description).nullable(),
    sortOrder: p.integer().default(0),
  },
});
export type ServiceGroup = InferEntity<typeof ServiceGroup>;

/**
 * A bookable service (prestation). Durations and buffers in minutes; the buffers block the staff member's
 * calendar around each appointment; minimum notice is how soon before its start a slot may still be booked.
 * Capacity is the most people one appointment takes (a staff member serves one appointment at a time).
 */
export const BookingService = defineEntity({
  name: 'BookingService',
  tableName: 'booking_services',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'active', 'name'] }],
  checks: [
    {
      name: 'booking_services_duration_check',
      expression: `duration_minutes >= ${B.minDurationMinutes} and duration_minutes <= ${B.maxDurationMinutes}`,
    },
    {
      name: 'booking_services_buffers_check',
      expression: `buffer_before_minutes >= 0 and buffer_before_minutes <= ${B.maxBufferMinutes} and buffer_after_minutes >= 0 and buffer_after_minutes <= ${B.maxBufferMinutes}`,
    },
    { name: 'booking_services_price_check', expression: 'price_cents >= 0' },
    { name: 'booking_services_capacity_check', expression: `capacity >= 1 and capacity <= ${B.maxCapacity}` },
    {
      name: 'booking_services_horizon_check',
      expression: `max_advance_days is null or (max_advance_days >= 1 and max_advance_days <= ${RULE_BOUNDS.maxAdvanceDays})`,
    },
  ],
  properties: {
    ...tenantColumns(),
    updatedAt: updatedAt(),
    groupId: () => p.manyToOne(ServiceGroup).mapToPk().fieldName('group_id').deleteRule('set null').nullable(),
    name: p.string().length(BOOKING_SIZES.name),
    description: p.string().length(BOOKING_SIZES.description).nullable(),
    durationMinutes: p.integer(),
    priceCents: p.integer(),
    currency: p.string().length(3),
    bufferBeforeMinutes: p.integer().default(0),
    bufferAfterMinutes: p.integer().default(0),
    minNoticeMinutes: p.integer().default(0),
    capacity: p.integer().default(1),
    /** The booking horizon: no slot starts more than this many days after now (null: no limit but the range's). */
    maxAdvanceDays: p.integer().nullable(),
    /** Questions the storefront asks; the answers are kept on the appointment. */
    questions: p.json<BookingQuestion[]>().default('[]'),
    active: p.boolean().default(true),
  },
});
export type BookingService = InferEntity<typeof BookingService>;

/** Weekly hours: ISO weekday (1 = Monday) -> ["09:00-12:00", "14:00-18:00"], in the business's time zone. */
export type WeeklyHours = Partial<Record<'1' | '2' | '3' | '4' | '5' | '6' | '7', string[]>>;

/**
 * Date overrides of a staff member: local date "YYYY-MM-DD" -> that day's ranges instead of the usual ones
 * (weekly hours or the HR schedule); an empty list closes the day.
 */
export type DateOverrides = Record<string, string[]>;

/**
 * A staff member who takes appointments. Public: displayName, bio. Private (never on the storefront): email,
 * phone, the linked user and HR employee. Hours come from the linked HR employee's availability when linked,
 * otherwise from `weeklyHours`. `serviceIds` empty = every service.
 */
export const Staff = defineEntity({
  name: 'Staff',
  tableName: 'booking_staff',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'active', 'displayName'] }],
  checks: [
    {
      name: 'booking_staff_caps_check',
      expression: `(max_per_day is null or (max_per_day >= 1 and max_per_day <= ${RULE_BOUNDS.maxCapPerDay})) and (max_per_week is null or (max_per_week >= 1 and max_per_week <= ${RULE_BOUNDS.maxCapPerWeek}))`,
    },
    {
      name: 'booking_staff_round_robin_check',
      expression: `priority >= ${RR.minPriority} and priority <= ${RR.maxPriority} and weight >= ${RR.minWeight} and weight <= ${RR.maxWeight}`,
    },
  ],
  properties: {
    ...tenantColumns(),
    updatedAt: updatedAt(),
    displayName: p.string().length(BOOKING_SIZES.name),
    bio: p.string().length(BOOKING_SIZES.description).nullable(),
    email: p.string().length(BOOKING_SIZES.email).nullable(),
    phone: p.string().length(BOOKING_SIZES.phone).nullable(),
    userId: p.uuid().nullable(),
    employeeId: p.uuid().nullable(),
    weeklyHours: p.json<WeeklyHours>(),
    serviceIds: p.array().columnType('uuid[]').default([]),
    /** Days that differ from the usual hours (closures, shorter or longer days), in the business's zone. */
    dateOverrides: p.json<DateOverrides>().default('{}'),
    /** Most live appointments a local day (null: no cap), and a local ISO week (Monday to Sunday). */
    maxPerDay: p.integer().nullable(),
    maxPerWeek: p.integer().nullable(),
    /** Round robin among the staff free at a slot: the highest priority first, then bookings shared by weight. */
    priority: p.integer().default(RR.priority),
    weight: p.integer().default(RR.weight),
    active: p.boolean().default(true),
  },
});
export type Staff = InferEntity<typeof Staff>;

/**
 * `held`: a waitlist hold (entities/core/waitlist.ts): the slot is kept for one visitor until they claim it (it
 * becomes `booked`) or the hold ends (`cancelled`). It blocks the slot like any live appointment.
 */
export const appointmentStatuses = ['booked', 'confirmed', 'cancelled', 'no_show', 'completed', 'held'] as const;
export type AppointmentStatus = (typeof appointmentStatuses)[number];

/**
 * An appointment of a service with a staff member. `blockedFrom`/`blockedUntil` are start - buffer before and
 * end + buffer after: a PostgreSQL exclusion constraint (btree_gist) refuses two appointments of one staff
 * member whose blocked ranges overlap unless one is cancelled, so no double booking can commit, whatever races.
 * `manageTokenHash`: the visitor's cancel/reschedule link (SHA-256 of the token mailed; the token is not stored).
 */
export const Appointment = defineEntity({
  name: 'Appointment',
  tableName: 'booking_appointments',
  filters: tenantFilter,
  indexes: [
    { properties: ['tenantId', 'startAt'] },
    { properties: ['tenantId', 'staffId', 'startAt'] },
    { properties: ['tenantId', 'customerId'] },
    // The reminder pass (across organisations): live, not yet reminded, with someone to mail.
    {
      name: 'booking_appointments_reminder_due_index',
      expression: `create index "booking_appointments_reminder_due_index" on "booking_appointments" ("start_at") where "reminder_sent_at" is null and "attendee_email" is not null and "status" in ('booked', 'confirmed')`,
    },
    // No double booking, enforced by the database (btree_gist for the uuid equalities).
    {
      name: 'booking_appointments_no_overlap',
      expression: `alter table "booking_appointments" add constraint "booking_appointments_no_overlap" exclude using gist ("tenant_id" with =, "staff_id" with =, tstzrange("blocked_from", "blocked_until", '[)') with &&) where ("status" <> 'cancelled')`,
    },
  ],
  uniques: [{ properties: ['manageTokenHash'] }],
  checks: [
    {
      name: 'booking_appointments_range_check',
      expression: 'start_at < end_at and blocked_from <= start_at and blocked_until >= end_at',
    },
    { name: 'booking_appointments_party_check', expression: 'party_size >= 1' },
  ],
  properties: {
    ...tenantColumns(),
    updatedAt: updatedAt(),
    serviceId: () => p.manyToOne(BookingService).mapToPk().fieldName('service_id').deleteRule('restrict'),
    staffId: () => p.manyToOne(Staff).mapToPk().fieldName('staff_id').deleteRule('restrict'),
    customerId: () => p.manyToOne(Customer).mapToPk().fieldName('customer_id').deleteRule('set null').nullable(),
    startAt: p.datetime(),
    endAt: p.datetime(),
    blockedFrom: p.datetime(),
    blockedUntil: p.datetime(),
    status: p.enum([...appointmentStatuses]).default('booked'),
    partySize: p.integer().default(1),
    /** staff: made by a member; storefront: booked anonymously on the public page. */
    source: p.enum(['staff', 'storefront']).default('staff'),
    attendeeName: p.string().length(BOOKING_SIZES.attendeeName).nullable(),
    attendeeEmail: p.string().length(BOOKING_SIZES.email).nullable(),
    attendeePhone: p.string().length(BOOKING_SIZES.phone).nullable(),
    notes: p.string().length(BOOKING_SIZES.notes).nullable(),
    /** Answers to the service's questions, by question id (null: none asked). */
    answers: p.json<Record<string, string>>().nullable(),
    /** How a storefront booking's staff member was chosen (null: booked by a member, or before round robin). */
    assignment: p.json<AppointmentAssignment>().nullable(),
    manageTokenHash: p.string().length(64).nullable(),
    reminderSentAt: p.datetime().nullable(),
    cancelledAt: p.datetime().nullable(),
    /** Change stamp (calendar_dav_seq, set by a trigger on every write): the CalDAV ETag and sync tokens. */
    davSeq: p.bigint('number').nullable(),
  },
});
export type Appointment = InferEntity<typeof Appointment>;
