import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsDateString,
  IsIn,
  IsInt,
  IsObject,
  IsString,
  IsUUID,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../../http/nullable';
import {
  appointmentStatuses,
  type AppointmentAssignment,
  type BookingQuestion,
  type DateOverrides,
  type WeeklyHours,
} from '../../../entities/core/booking';
import type { AppointmentRow } from '../../../domain/core/booking/store/appointments';
import type { Slot } from '../../../domain/core/booking/availability';
import type { GroupRow, ServiceRow, StaffRow } from '../../../domain/core/booking/store/catalogue';
import { mapPage, type Page } from '../../../lib/pagination';
import { iso, isoTime } from '../../http/present';

export const priorityDoc =
  'Round robin: among the staff free at a slot, the highest priority takes a booking that names nobody (0 lowest, 4 highest; default 2)';
export const weightDoc =
  'Round robin: within a priority, bookings are shared in proportion to weight (200 takes twice the share of 100; default 100)';

/** The JSON schema of a service's booking questions (views and request bodies alike). */
export const questionsSchema = {
  description: 'Questions the storefront asks at booking; the answers reach the appointment (`answers`)',
  type: 'array',
  maxItems: 20,
  items: {
    type: 'object',
    required: ['id', 'label', 'kind', 'required'],
    properties: {
      id: { type: 'string', pattern: '^[a-z0-9_-]{1,40}$' },
      label: { type: 'string', minLength: 1, maxLength: 200 },
      kind: { enum: ['text', 'choice'] },
      options: { type: 'array', maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 100 } },
      required: { type: 'boolean' },
    },
    additionalProperties: false,
  },
} as unknown as Parameters<typeof JSONSchema>[0];

/** Presenters of the booking routes. Public (storefront) views carry no tenant id and no private staff data. */

const assignmentReasons = [
  'requested',
  'only_available',
  'higher_priority',
  'fewer_bookings_for_weight',
  'least_recently_booked',
  'tie',
] as const;

/** How a storefront booking's staff member was chosen (round robin among the staff free at the slot). */
export class AppointmentAssignmentView {
  @JSONSchema({ description: '`requested`: the visitor named the staff member; `round_robin`: chosen among the free' })
  @IsIn(['requested', 'round_robin'])
  method!: string;
  @JSONSchema({
    description:
      'The first rule that set the chosen one before the next free one: a higher `priority`; fewer live bookings of the service in the window for their `weight`; booked least recently; `tie` (by id); `only_available` when no other was free',
  })
  @IsIn(assignmentReasons)
  reason!: string;
}

/** The assignment in full, for members: with the figures round robin compared. */
export class BookingAssignmentView extends AppointmentAssignmentView {
  @JSONSchema({ description: 'Staff members free at the slot that were ranked' }) @IsInt() considered!: number;
  @IsInt() priority!: number;
  @IsInt() weight!: number;
  @JSONSchema({ description: "The chosen one's live bookings of the service in the window, before this one" })
  @IsInt()
  recentBookings!: number;
  @JSONSchema({ description: 'The window: bookings starting from this many days ago, upcoming ones included' })
  @IsInt()
  windowDays!: number;

  static from(a: AppointmentAssignment): BookingAssignmentView {
    const { method, reason, considered, priority, weight, recentBookings, windowDays } = a;
    return { method, reason, considered, priority, weight, recentBookings, windowDays };
  }
}

export class BookingAppointmentView {
  @IsUUID() id!: string;
  @IsUUID() serviceId!: string;
  @IsUUID() staffId!: string;
  @Nullable() @IsUUID() customerId!: string | null;
  @IsDateString() startAt!: string;
  @IsDateString() endAt!: string;
  @JSONSchema({ description: "Start minus the service's buffer before: the staff member's time is held from here" })
  @IsDateString()
  blockedFrom!: string;
  @JSONSchema({ description: "End plus the service's buffer after" }) @IsDateString() blockedUntil!: string;
  @IsIn(appointmentStatuses) status!: string;
  @IsInt() partySize!: number;
  @IsIn(['staff', 'storefront']) source!: string;
  @Nullable() @IsString() attendeeName!: string | null;
  @Nullable() @IsString() attendeeEmail!: string | null;
  @Nullable() @IsString() attendeePhone!: string | null;
  @Nullable() @IsString() notes!: string | null;
  @JSONSchema({
    description: "Answers to the service's booking questions, by question id (null: none asked)",
    type: ['object', 'null'],
    additionalProperties: { type: 'string' },
  })
  @Nullable()
  @IsObject()
  answers!: Record<string, string> | null;
  @JSONSchema({ description: 'How a storefront booking chose its staff member (null: booked by a member)' })
  @Nullable()
  @ValidateNested()
  @Type(() => BookingAssignmentView)
  assignment!: BookingAssignmentView | null;
  @Nullable() @IsDateString() cancelledAt!: string | null;
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(a: AppointmentRow): BookingAppointmentView {
    return {
      id: a.id,
      serviceId: a.serviceId,
      staffId: a.staffId,
      customerId: a.customerId ?? null,
      startAt: isoTime(a.startAt),
      endAt: isoTime(a.endAt),
      blockedFrom: isoTime(a.blockedFrom),
      blockedUntil: isoTime(a.blockedUntil),
      status: a.status,
      partySize: a.partySize,
      source: a.source,
      attendeeName: a.attendeeName ?? null,
      attendeeEmail: a.attendeeEmail ?? null,
      attendeePhone: a.attendeePhone ?? null,
      notes: a.notes ?? null,
      answers: a.answers ?? null,
      assignment: a.assignment ? BookingAssignmentView.from(a.assignment) : null,
      cancelledAt: iso(a.cancelledAt),
      createdAt: isoTime(a.createdAt),
      updatedAt: isoTime(a.updatedAt),
    };
  }
}

export class BookingAppointmentPageView {
  @ValidateNested({ each: true }) @Type(() => BookingAppointmentView) items!: BookingAppointmentView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<AppointmentRow>): BookingAppointmentPageView {
    return mapPage(page, BookingAppointmentView.from);
  }
}

export class BookingServiceView {
  @IsUUID() id!: string;
  @Nullable() @IsUUID() groupId!: string | null;
  @IsString() name!: string;
  @Nullable() @IsString() description!: string | null;
  @IsInt() durationMinutes!: number;
  @IsInt() priceCents!: number;
  @IsString() currency!: string;
  @IsInt() bufferBeforeMinutes!: number;
  @IsInt() bufferAfterMinutes!: number;
  @IsInt() minNoticeMinutes!: number;
  @IsInt() capacity!: number;
  @JSONSchema({ description: 'Booking horizon: no slot more than this many days ahead (null: no limit)' })
  @Nullable()
  @IsInt()
  maxAdvanceDays!: number | null;
  @JSONSchema(questionsSchema) @IsArray() questions!: BookingQuestion[];
  @IsBoolean() active!: boolean;

  static from(s: ServiceRow): BookingServiceView {
    return {
      id: s.id,
      groupId: s.groupId ?? null,
      name: s.name,
      description: s.description ?? null,
      durationMinutes: s.durationMinutes,
      priceCents: s.priceCents,
      currency: s.currency,
      bufferBeforeMinutes: s.bufferBeforeMinutes,
      bufferAfterMinutes: s.bufferAfterMinutes,
      minNoticeMinutes: s.minNoticeMinutes,
      capacity: s.capacity,
      maxAdvanceDays: s.maxAdvanceDays ?? null,
      questions: s.questions,
      active: s.active,
    };
  }
}

export class BookingServiceListView {
  @ValidateNested({ each: true }) @Type(() => BookingServiceView) items!: BookingServiceView[];
}

export class BookingGroupView {
  @IsUUID() id!: string;
  @IsString() name!: string;
  @Nullable() @IsString() description!: string | null;
  @IsInt() sortOrder!: number;

  static from(g: GroupRow): BookingGroupView {
    return { id: g.id, name: g.name, description: g.description ?? null, sortOrder: g.sortOrder };
  }
}

export class BookingGroupListView {
  @ValidateNested({ each: true }) @Type(() => BookingGroupView) items!: BookingGroupView[];
}

export class BookingStaffView {
  @IsUUID() id!: string;
  @IsString() displayName!: string;
  @Nullable() @IsString() bio!: string | null;
  @Nullable() @IsString() email!: string | null;
  @Nullable() @IsString() phone!: string | null;
  @Nullable() @IsUUID() userId!: string | null;
  @Nullable() @IsUUID() employeeId!: string | null;
  @JSONSchema({
    description: 'Own weekly hours (used when not linked to an HR employee)',
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
  })
  @IsObject()
  weeklyHours!: WeeklyHours;
  @IsUUID('all', { each: true }) serviceIds!: string[];
  @JSONSchema({
    description: 'Local date "YYYY-MM-DD" -> that day\'s ranges instead of the usual hours (empty: closed)',
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
  })
  @IsObject()
  dateOverrides!: DateOverrides;
  @JSONSchema({ description: 'Most live appointments a local day (null: no cap)' }) @Nullable() @IsInt() maxPerDay!:
    number | null;
  @JSONSchema({ description: 'Most live appointments a local ISO week (null: no cap)' })
  @Nullable()
  @IsInt()
  maxPerWeek!: number | null;
  @JSONSchema({ description: priorityDoc }) @IsInt() priority!: number;
  @JSONSchema({ description: weightDoc }) @IsInt() weight!: number;
  @IsBoolean() active!: boolean;

  static from(s: StaffRow): BookingStaffView {
    return {
      id: s.id,
      displayName: s.displayName,
      bio: s.bio ?? null,
      email: s.email ?? null,
      phone: s.phone ?? null,
      userId: s.userId ?? null,
      employeeId: s.employeeId ?? null,
      weeklyHours: s.weeklyHours,
      serviceIds: s.serviceIds,
      dateOverrides: s.dateOverrides,
      maxPerDay: s.maxPerDay ?? null,
      maxPerWeek: s.maxPerWeek ?? null,
      priority: s.priority,
      weight: s.weight,
      active: s.active,
    };
  }
}

export class BookingStaffListView {
  @ValidateNested({ each: true }) @Type(() => BookingStaffView) items!: BookingStaffView[];
}

export class BookingSlotView {
  @IsDateString() start!: string;
  @IsDateString() end!: string;
  @JSONSchema({ description: 'Staff members free for this slot' }) @IsUUID('all', { each: true }) staffIds!: string[];

  /** The slots of one answer: they share instants (a slot's end is another's start), each formatted once. */
  static list(slots: Slot[]): BookingSlotView[] {
    const formatted = new Map<number, string>();
    const iso = (d: Date) => {
      const t = d.getTime();
      let text = formatted.get(t);
      if (text === undefined) formatted.set(t, (text = isoTime(d)));
      return text;
    };
    return slots.map((s) => ({ start: iso(s.start), end: iso(s.end), staffIds: s.staffIds }));
  }
}

export class BookingAvailabilityView {
  @JSONSchema({ description: "The business's time zone (slots are in UTC; show them in this zone)" })
  @IsString()
  timeZone!: string;
  @ValidateNested({ each: true }) @Type(() => BookingSlotView) slots!: BookingSlotView[];
}
