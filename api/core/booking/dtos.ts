import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsISO4217CurrencyCode,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  Min,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { INT4_MAX, isCanonicalUuid, IsInstant, isInstant, KeysetPageQuery, Length, MaxLength } from '../../http/dtos';
import {
  appointmentStatuses,
  BOOKING_SIZES,
  ROUND_ROBIN_BOUNDS,
  RULE_BOUNDS,
  SERVICE_BOUNDS,
  type AppointmentStatus,
  type BookingQuestion,
  type DateOverrides,
  type WeeklyHours,
} from '../../../entities/core/booking';
import { questionsProblem } from '../../../domain/core/booking/bookingRules';
import { priorityDoc, questionsSchema, weightDoc } from './views';
import { CALENDAR_EVENT_SIZES } from '../../../entities/core/calendar';
import { HOURS_RANGE } from '../../../domain/core/booking/slots';

/** Request bodies, queries and path parameters of the booking routes (appointments, catalogue, calendar, storefront). */

export const PHONE = /^[+0-9 ().\-/]{3,32}$/;
export const nullable = (description: string, type = 'string') =>
  ({ description, type: [type, 'null'] }) as unknown as Parameters<typeof JSONSchema>[0];
const instant = (description: string) => JSONSchema({ description, type: 'string', format: 'date-time' });
const WEEKDAYS = ['1', '2', '3', '4', '5', '6', '7'];

/** Weekly hours: keys "1".."7" (ISO weekday, 1 = Monday), each a list of "HH:MM-HH:MM" ranges with end after start. */
const IsWeeklyHours = () =>
  ValidateBy({
    name: 'isWeeklyHours',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        Object.entries(value).every(
          ([day, spans]) =>
            WEEKDAYS.includes(day) &&
            Array.isArray(spans) &&
            spans.length <= 10 &&
            spans.every((s) => typeof s === 'string' && HOURS_RANGE.test(s) && s.slice(0, 5) < s.slice(6)),
        ),
      defaultMessage: () =>
        'weeklyHours must map ISO weekdays "1".."7" to lists of "HH:MM-HH:MM" ranges (end after start)',
    },
  });

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const QUESTION_ID = /^[a-z0-9_-]{1,40}$/;
const isSpans = (spans: unknown) =>
  Array.isArray(spans) &&
  spans.length <= 10 &&
  spans.every((s) => typeof s === 'string' && HOURS_RANGE.test(s) && s.slice(0, 5) < s.slice(6));

/** Date overrides: at most RULE_BOUNDS.maxOverrides local dates "YYYY-MM-DD", each a list of ranges (empty: closed). */
const IsDateOverrides = () =>
  ValidateBy({
    name: 'isDateOverrides',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        Object.keys(value).length <= RULE_BOUNDS.maxOverrides &&
        Object.entries(value).every(([date, spans]) => DATE.test(date) && isSpans(spans)),
      defaultMessage: () =>
        `dateOverrides must map at most ${RULE_BOUNDS.maxOverrides} dates "YYYY-MM-DD" to lists of "HH:MM-HH:MM" ranges (empty: closed)`,
    },
  });

const dateOverridesSchema = {
  description:
    'Local date "YYYY-MM-DD" -> that day\'s ranges "HH:MM-HH:MM" instead of the usual hours; [] closes the day',
  type: 'object',
  propertyNames: { pattern: DATE.source },
  maxProperties: RULE_BOUNDS.maxOverrides,
  additionalProperties: { type: 'array', maxItems: 10, items: { type: 'string', pattern: HOURS_RANGE.source } },
} as unknown as Parameters<typeof JSONSchema>[0];

const isQuestion = (q: unknown): q is BookingQuestion => {
  if (typeof q !== 'object' || q === null || Array.isArray(q)) return false;
  const { id, label, kind, options, required, ...rest } = q as Record<string, unknown>;
  return (
    !Object.keys(rest).length &&
    typeof id === 'string' &&
    QUESTION_ID.test(id) &&
    typeof label === 'string' &&
    label.trim().length >= 1 &&
    label.length <= 200 &&
    (kind === 'text' || kind === 'choice') &&
    typeof required === 'boolean' &&
    (options === undefined ||
      (Array.isArray(options) &&
        options.length <= RULE_BOUNDS.maxOptions &&
        options.every((o) => typeof o === 'string' && o.length >= 1 && o.length <= 100)))
  );
};

/** Booking questions: well-formed, unique ids, options for (and only for) choices. */
const IsQuestions = () =>
  ValidateBy({
    name: 'isQuestions',
    validator: {
      validate: (value: unknown) =>
        Array.isArray(value) &&
        value.length <= RULE_BOUNDS.maxQuestions &&
        value.every(isQuestion) &&
        questionsProblem(value) === null,
      defaultMessage: (args) => {
        const value = args?.value as unknown;
        const problem = Array.isArray(value) && value.every(isQuestion) ? questionsProblem(value) : null;
        return `questions ${problem ?? `must be at most ${RULE_BOUNDS.maxQuestions} of {id: [a-z0-9_-]{1,40}, label, kind: text|choice, options?, required}`}`;
      },
    },
  });

const answersSchema = {
  description: "Answers to the service's questions, by question id (required ones must be given)",
  type: 'object',
  maxProperties: RULE_BOUNDS.maxQuestions,
  additionalProperties: { type: 'string', maxLength: RULE_BOUNDS.maxAnswerLength },
} as unknown as Parameters<typeof JSONSchema>[0];

/** Answers: string values by question id (the service's rules are checked by the booking). */
const IsAnswers = () =>
  ValidateBy({
    name: 'isAnswers',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        Object.keys(value).length <= RULE_BOUNDS.maxQuestions &&
        Object.values(value).every((v) => typeof v === 'string' && v.length <= RULE_BOUNDS.maxAnswerLength),
      defaultMessage: () => 'answers must map question ids to strings',
    },
  });

const weeklyHoursSchema = {
  description: 'ISO weekday ("1" = Monday) -> ranges "HH:MM-HH:MM" in the business\'s time zone; a missing day is off',
  type: 'object',
  propertyNames: { enum: WEEKDAYS },
  additionalProperties: { type: 'array', maxItems: 10, items: { type: 'string', pattern: HOURS_RANGE.source } },
} as unknown as Parameters<typeof JSONSchema>[0];

export class BookingAttendeeBody {
  @IsString() @Length(1, BOOKING_SIZES.attendeeName) name!: string;
  @IsEmail() @MaxLength(BOOKING_SIZES.email) email!: string;
  @JSONSchema(nullable('Phone number (digits, spaces, + ( ) . - /)'))
  @IsOptional()
  @Matches(PHONE, { message: 'phone must be a phone number' })
  phone?: string | null;
}

export class CreateBookingAppointmentBody {
  @IsUUID() serviceId!: string;
  @IsUUID() staffId!: string;
  @instant("Start (RFC 3339 with Z or an offset); the end follows from the service's duration")
  @IsInstant()
  start!: string;
  @JSONSchema(nullable('An existing customer; otherwise `attendee` finds (by e-mail) or creates one'))
  @IsOptional()
  @IsUUID()
  customerId?: string | null;
  // IsObject: ValidateNested alone takes an array (of attendees, or empty) and checks each element.
  @IsOptional() @IsObject() @ValidateNested() @Type(() => BookingAttendeeBody) attendee?: BookingAttendeeBody;
  @IsOptional() @IsInt() @Min(1) @Max(SERVICE_BOUNDS.maxCapacity) partySize?: number;
  @JSONSchema(nullable('Internal notes')) @IsOptional() @IsString() @MaxLength(BOOKING_SIZES.notes) notes?:
    string | null;
}

export class UpdateBookingAppointmentBody {
  @instant('New start: reschedules (the blocked range is recomputed)') @IsOptional() @IsInstant() start?: string;
  @IsOptional() @IsUUID() staffId?: string;
  @IsOptional() @IsUUID() serviceId?: string;
  @JSONSchema({ description: 'booked -> confirmed -> completed | no_show; booked or confirmed -> cancelled' })
  @IsOptional()
  @IsIn(appointmentStatuses)
  status?: AppointmentStatus;
  @JSONSchema(nullable('The customer; null detaches')) @IsOptional() @IsUUID() customerId?: string | null;
  @IsOptional() @IsInt() @Min(1) @Max(SERVICE_BOUNDS.maxCapacity) partySize?: number;
  @JSONSchema(nullable('Internal notes')) @IsOptional() @IsString() @MaxLength(BOOKING_SIZES.notes) notes?:
    string | null;
}

export class ListBookingAppointmentsQuery extends KeysetPageQuery {
  @instant('Appointments starting at or after this time') @IsOptional() @IsInstant() from?: string;
  @instant('Appointments starting before this time') @IsOptional() @IsInstant() to?: string;
  @IsOptional() @IsUUID() staffId?: string;
  @IsOptional() @IsUUID() customerId?: string;
  // A function replaces the schema derived from the rules (an array's items and maxItems): the parameter is one string.
  @JSONSchema(() => ({
    description: 'Statuses, comma-separated (e.g. booked,confirmed)',
    type: 'string',
    pattern: '^[a-z_]+(,[a-z_]+)*$',
    maxLength: 100,
  }))
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.split(',').filter(Boolean) : value))
  @IsArray()
  @IsIn(appointmentStatuses, { each: true })
  status?: AppointmentStatus[];
}

export class CreateBookingServiceBody {
  @JSONSchema(nullable('Service group')) @IsOptional() @IsUUID() groupId?: string | null;
  @IsString() @Length(1, BOOKING_SIZES.name) name!: string;
  @JSONSchema(nullable('Shown on the storefront'))
  @IsOptional()
  @IsString()
  @MaxLength(BOOKING_SIZES.description)
  description?: string | null;
  @JSONSchema({ description: `Minutes (${SERVICE_BOUNDS.minDurationMinutes} to ${SERVICE_BOUNDS.maxDurationMinutes})` })
  @IsInt()
  @Min(SERVICE_BOUNDS.minDurationMinutes)
  @Max(SERVICE_BOUNDS.maxDurationMinutes)
  durationMinutes!: number;
  @JSONSchema({ description: 'Price in cents' }) @IsInt() @Min(0) @Max(INT4_MAX) priceCents!: number;
  @JSONSchema({ description: 'ISO 4217 (default EUR)', type: 'string', pattern: '^[A-Z]{3}$' })
  @IsOptional()
  @IsISO4217CurrencyCode()
  currency?: string;
  @IsOptional() @IsInt() @Min(0) @Max(SERVICE_BOUNDS.maxBufferMinutes) bufferBeforeMinutes?: number;
  @IsOptional() @IsInt() @Min(0) @Max(SERVICE_BOUNDS.maxBufferMinutes) bufferAfterMinutes?: number;
  @JSONSchema({ description: 'How long before its start a slot may still be booked on the storefront (minutes)' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(525_600)
  minNoticeMinutes?: number;
  @JSONSchema({ description: 'Most people one appointment takes' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(SERVICE_BOUNDS.maxCapacity)
  capacity?: number;
  @JSONSchema({
    description: 'Booking horizon: no slot more than this many days ahead (null: no limit)',
    type: ['integer', 'null'],
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(RULE_BOUNDS.maxAdvanceDays)
  maxAdvanceDays?: number | null;
  @JSONSchema(questionsSchema) @IsOptional() @IsQuestions() questions?: BookingQuestion[];
  @IsOptional() @IsBoolean() active?: boolean;
}

export class UpdateBookingServiceBody {
  @JSONSchema(nullable('Service group; null ungroups')) @IsOptional() @IsUUID() groupId?: string | null;
  @IsOptional() @IsString() @Length(1, BOOKING_SIZES.name) name?: string;
  @JSONSchema(nullable('Shown on the storefront'))
  @IsOptional()
  @IsString()
  @MaxLength(BOOKING_SIZES.description)
  description?: string | null;
  @IsOptional()
  @IsInt()
  @Min(SERVICE_BOUNDS.minDurationMinutes)
  @Max(SERVICE_BOUNDS.maxDurationMinutes)
  durationMinutes?: number;
  @IsOptional() @IsInt() @Min(0) @Max(INT4_MAX) priceCents?: number;
  @JSONSchema({ description: 'ISO 4217', type: 'string', pattern: '^[A-Z]{3}$' })
  @IsOptional()
  @IsISO4217CurrencyCode()
  currency?: string;
  @IsOptional() @IsInt() @Min(0) @Max(SERVICE_BOUNDS.maxBufferMinutes) bufferBeforeMinutes?: number;
  @IsOptional() @IsInt() @Min(0) @Max(SERVICE_BOUNDS.maxBufferMinutes) bufferAfterMinutes?: number;
  @IsOptional() @IsInt() @Min(0) @Max(525_600) minNoticeMinutes?: number;
  @IsOptional() @IsInt() @Min(1) @Max(SERVICE_BOUNDS.maxCapacity) capacity?: number;
  @JSONSchema({
    description: 'Booking horizon: no slot more than this many days ahead (null: no limit)',
    type: ['integer', 'null'],
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(RULE_BOUNDS.maxAdvanceDays)
  maxAdvanceDays?: number | null;
  @JSONSchema(questionsSchema) @IsOptional() @IsQuestions() questions?: BookingQuestion[];
  @IsOptional() @IsBoolean() active?: boolean;
}

export class CreateBookingGroupBody {
  @IsString() @Length(1, BOOKING_SIZES.name) name!: string;
  @JSONSchema(nullable('Shown on the storefront'))
  @IsOptional()
  @IsString()
  @MaxLength(BOOKING_SIZES.description)
  description?: string | null;
  @IsOptional() @IsInt() @Min(-1000) @Max(1000) sortOrder?: number;
}

export class UpdateBookingGroupBody {
  @IsOptional() @IsString() @Length(1, BOOKING_SIZES.name) name?: string;
  @JSONSchema(nullable('Shown on the storefront'))
  @IsOptional()
  @IsString()
  @MaxLength(BOOKING_SIZES.description)
  description?: string | null;
  @IsOptional() @IsInt() @Min(-1000) @Max(1000) sortOrder?: number;
}

/** The fields of a staff member that both the creation and a partial update take. */
class BookingStaffFields {
  @JSONSchema(nullable('Public')) @IsOptional() @IsString() @MaxLength(BOOKING_SIZES.description) bio?: string | null;
  @JSONSchema({ type: ['string', 'null'], format: 'email', description: 'Private' })
  @IsOptional()
  @IsEmail()
  @MaxLength(BOOKING_SIZES.email)
  email?: string | null;
  @JSONSchema(nullable('Private')) @IsOptional() @Matches(PHONE, { message: 'phone must be a phone number' }) phone?:
    string | null;
  @JSONSchema(weeklyHoursSchema) @IsOptional() @IsWeeklyHours() weeklyHours?: WeeklyHours;
  @JSONSchema({ description: 'Services performed (empty: every service)' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsUUID('all', { each: true })
  serviceIds?: string[];
  @JSONSchema(dateOverridesSchema) @IsOptional() @IsDateOverrides() dateOverrides?: DateOverrides;
  @JSONSchema({ description: 'Most live appointments a local day (null: no cap)', type: ['integer', 'null'] })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(RULE_BOUNDS.maxCapPerDay)
  maxPerDay?: number | null;
  @JSONSchema({ description: 'Most live appointments a local ISO week (null: no cap)', type: ['integer', 'null'] })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(RULE_BOUNDS.maxCapPerWeek)
  maxPerWeek?: number | null;
  @JSONSchema({ description: priorityDoc })
  @IsOptional()
  @IsInt()
  @Min(ROUND_ROBIN_BOUNDS.minPriority)
  @Max(ROUND_ROBIN_BOUNDS.maxPriority)
  priority?: number;
  @JSONSchema({ description: weightDoc })
  @IsOptional()
  @IsInt()
  @Min(ROUND_ROBIN_BOUNDS.minWeight)
  @Max(ROUND_ROBIN_BOUNDS.maxWeight)
  weight?: number;
  @IsOptional() @IsBoolean() active?: boolean;
}

export class CreateBookingStaffBody extends BookingStaffFields {
  @JSONSchema({ description: 'Public name on the storefront' })
  @IsString()
  @Length(1, BOOKING_SIZES.name)
  displayName!: string;
}

export class UpdateBookingStaffBody extends BookingStaffFields {
  @IsOptional() @IsString() @Length(1, BOOKING_SIZES.name) displayName?: string;
}

export class LinkBookingStaffBody {
  @JSONSchema(nullable('A member of the organisation (their busy calendar events block slots); null unlinks'))
  @IsOptional()
  @IsUUID()
  userId?: string | null;
  @JSONSchema(nullable('An HR employee (their schedule and leave give the hours); null unlinks'))
  @IsOptional()
  @IsUUID()
  employeeId?: string | null;
}

/** Every key of `value` is one of `allowed` and holds a string that `accept` takes (absent optional keys are fine). */
function stringsAccepted(value: unknown, allowed: Record<string, (v: string) => boolean>, required: string[]): boolean {
  if (typeof value !== 'object' || value === null) return false;
  for (const key of required) if (!(key in value)) return false;
  for (const [key, v] of Object.entries(value))
    if (!Object.hasOwn(allowed, key) || typeof v !== 'string' || !allowed[key](v)) return false;
  return true;
}

export class BookingAvailabilityQuery {
  /** The storefront's hottest read skips the class-validator pass for a clean query (same checks; see toDto). */
  static fastAccept(query: unknown): boolean {
    return stringsAccepted(
      query,
      { serviceId: isCanonicalUuid, from: isInstant, to: isInstant, staffId: isCanonicalUuid },
      ['serviceId', 'from'],
    );
  }

  @IsUUID() serviceId!: string;
  @instant('Range start (RFC 3339, with Z or an offset)') @IsInstant() from!: string;
  @instant('Range end (ISO 8601; at most 62 days after from). Default: 7 days after from, the week a storefront shows')
  @IsOptional()
  @IsInstant()
  to?: string;
  @JSONSchema({ description: 'One staff member; any staff when absent' }) @IsOptional() @IsUUID() staffId?: string;
}

export class BookingSlugParams {
  /** A clean slug skips the class-validator pass (same checks; see toDto). Subclasses' extra keys take the full path. */
  static fastAccept(params: unknown): boolean {
    return stringsAccepted(params, { publicSlug: (v) => v.length >= 1 && v.length <= 63 }, ['publicSlug']);
  }

  @JSONSchema({ description: "The business's public slug" }) @IsString() @Length(1, 63) publicSlug!: string;
}

export class BookingManageParams extends BookingSlugParams {
  @JSONSchema({ description: 'The manage token mailed with the booking' }) @IsString() @Length(20, 100) token!: string;
}

export class PublicBookingBody {
  @IsString() @Length(1, BOOKING_SIZES.attendeeName) name!: string;
  @IsEmail() @MaxLength(BOOKING_SIZES.email) email!: string;
  @JSONSchema(nullable('Phone number'))
  @IsOptional()
  @Matches(PHONE, { message: 'phone must be a phone number' })
  phone?: string | null;
  @IsUUID() serviceId!: string;
  @JSONSchema({ description: 'A staff member; the first free one when absent' })
  @IsOptional()
  @IsUUID()
  staffId?: string;
  @instant('A slot start given by the availability route') @IsInstant() start!: string;
  @JSONSchema(answersSchema) @IsOptional() @IsAnswers() answers?: Record<string, string>;
}

export class PublicRescheduleBody {
  @instant('A new slot start given by the availability route') @IsInstant() start!: string;
}

export class VisitorLinkBody {
  @IsString() @Length(1, 63) publicSlug!: string;
  @IsEmail() @MaxLength(BOOKING_SIZES.email) email!: string;
}

export class VisitorVerifyBody {
  @JSONSchema({ description: 'The token of the mailed link' }) @IsString() @Length(20, 100) token!: string;
}

export class CreateCalendarEventBody {
  @IsString() @Length(1, CALENDAR_EVENT_SIZES.title) title!: string;
  @JSONSchema(nullable('Details')) @IsOptional() @IsString() @MaxLength(CALENDAR_EVENT_SIZES.description) description?:
    string | null;
  @JSONSchema(nullable('Where')) @IsOptional() @IsString() @MaxLength(CALENDAR_EVENT_SIZES.location) location?:
    string | null;
  @instant('Start (RFC 3339, with Z or an offset)') @IsInstant() startAt!: string;
  @instant('End (RFC 3339, with Z or an offset), after start') @IsInstant() endAt!: string;
  @IsOptional() @IsBoolean() allDay?: boolean;
  @JSONSchema({ description: 'Busy events block booking slots and show in free/busy (default true)' })
  @IsOptional()
  @IsBoolean()
  busy?: boolean;
  @JSONSchema(nullable('Staff member whose slots it blocks (default: the staff member linked to the owner)'))
  @IsOptional()
  @IsUUID()
  staffId?: string | null;
}

export class UpdateCalendarEventBody {
  @IsOptional() @IsString() @Length(1, CALENDAR_EVENT_SIZES.title) title?: string;
  @JSONSchema(nullable('Details')) @IsOptional() @IsString() @MaxLength(CALENDAR_EVENT_SIZES.description) description?:
    string | null;
  @JSONSchema(nullable('Where')) @IsOptional() @IsString() @MaxLength(CALENDAR_EVENT_SIZES.location) location?:
    string | null;
  @instant('Start (RFC 3339, with Z or an offset)') @IsOptional() @IsInstant() startAt?: string;
  @instant('End (RFC 3339, with Z or an offset)') @IsOptional() @IsInstant() endAt?: string;
  @IsOptional() @IsBoolean() allDay?: boolean;
  @IsOptional() @IsBoolean() busy?: boolean;
  @JSONSchema(nullable('Staff member whose slots it blocks')) @IsOptional() @IsUUID() staffId?: string | null;
}

export class ListCalendarEventsQuery extends KeysetPageQuery {
  @instant('Events ending after this time') @IsOptional() @IsInstant() from?: string;
  @instant('Events starting before this time') @IsOptional() @IsInstant() to?: string;
}

export class CalendarFreeBusyQuery {
  @instant('Range start') @IsInstant() from!: string;
  @instant('Range end (at most 62 days after from)') @IsInstant() to!: string;
  @JSONSchema(() => ({
    description: 'Staff ids, comma-separated (default: every active staff member; at most 50)',
    type: 'string',
    maxLength: 1900,
  }))
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.split(',').filter(Boolean) : value))
  @IsArray()
  @ArrayMaxSize(50)
  @IsUUID('all', { each: true })
  staffIds?: string[];
}

export class CalendarFeedParams {
  @JSONSchema({ description: '`<feedId>.<secret>.ics` as given by sync-info' })
  @IsString()
  @Length(10, 200)
  token!: string;
}
