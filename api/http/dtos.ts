import { Type } from 'class-transformer';
import {
  buildMessage,
  IS_LENGTH,
  IS_NUMBER,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  isUUID,
  Matches,
  Max,
  MAX_LENGTH,
  Min,
  MIN_LENGTH,
  ValidateBy,
  type IsNumberOptions,
  type ValidationOptions,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { INSTANT_RANGE, isCalendarDate, isStorableTime } from '../../lib/calendar';

/** Largest value of a PostgreSQL integer column: the Max of every integer field stored in one. */
export const INT4_MAX = 2_147_483_647;

/**
 * RFC 3339 date-time (OpenAPI's `date-time`): a date, `T`, a time to the second with an optional fraction, and
 * `Z` or an offset ±hh:mm. A date alone or a time without offset names no instant: `new Date()` would read it as
 * UTC midnight or in the server process's zone, not the client's.
 */
const RFC3339_DATE_TIME =
  /^\d{4}-\d{2}-\d{2}T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** An RFC 3339 date-time (RFC3339_DATE_TIME) on a day that exists (not 2026-02-30), whatever its year. */
const isDateTime = (value: unknown): value is string =>
  typeof value === 'string' && RFC3339_DATE_TIME.test(value) && isCalendarDate(value.slice(0, 10));

/**
 * A point in time a client sends: an RFC 3339 date-time (isDateTime) whose UTC time lies in INSTANT_RANGE
 * (lib/dates.ts), the years that Date.toISOString, RFC 3339 and PostgreSQL all hold.
 */
export const isInstant = (value: unknown): value is string => isDateTime(value) && isStorableTime(Date.parse(value));

/** Name of the @IsInstant rule: api/http/openapi.ts documents it as a date-time. */
export const IS_INSTANT = 'isInstant';

/** Every DTO field holding a point in time: 400 `validation_failed` for anything but an RFC 3339 date-time in INSTANT_RANGE (isInstant). */
export const IsInstant = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: IS_INSTANT,
      validator: {
        validate: isInstant,
        defaultMessage: buildMessage(
          (each, args) =>
            isDateTime(args?.value)
              ? `${each}$property must be ${INSTANT_RANGE}`
              : `${each}$property must be a date and time with Z or an offset (RFC 3339), e.g. 2026-03-01T09:30:00Z or 2026-03-01T10:30:00+01:00`,
          options,
        ),
      },
    },
    options,
  );

/** Name of the @IsCalendarDate rule: api/http/openapi.ts documents it as a date. */
export const IS_CALENDAR_DATE = 'isCalendarDate';

/**
 * Every DTO field holding a calendar date: YYYY-MM-DD, a day that exists (not 2026-02-30), years 0001-9999
 * (lib/dates.ts), else 400 `validation_failed`. Documented as `{ type: 'string', format: 'date' }` with its
 * pattern (a nullable field's JSONSchema adds `null` to the type). Not @IsISO8601: class-validator-jsonschema
 * documents it as a `oneOf` of date and date-time, which excludes null even where the field takes it, holds a
 * date-time branch no date field accepts, and fails every date in validators that treat formats as annotations
 * (both branches then match).
 */
export const IsCalendarDate = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: IS_CALENDAR_DATE,
      validator: {
        validate: isCalendarDate,
        defaultMessage: buildMessage((each) => `${each}$property must be a date YYYY-MM-DD that exists`, options),
      },
    },
    options,
  );

/**
 * Text without the characters XML 1.0 forbids (C0 controls but tab, line feed and carriage return; U+FFFE,
 * U+FFFF), for fields printed into an XML document (Factur-X). NUL and unpaired surrogates are refused for
 * every request already (lib/json.ts).
 */
// eslint-disable-next-line no-control-regex -- control characters are precisely what is refused
export const XML_TEXT = /^[^\u0001-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]*$/;

/** A text field printed into an XML document: 400 `validation_failed` for a character XML 1.0 forbids. */
export const IsXmlText = (options?: ValidationOptions) =>
  Matches(XML_TEXT, { message: '$property must not contain control characters', ...options });

/**
 * Length of a text as PostgreSQL counts it (char_length, the n of varchar(n)) and as JSON Schema's
 * minLength/maxLength do: in code points. Not validator.js isLength (class-validator's @Length/@MaxLength), which
 * counts a character and its variation selector ("❤️", U+2764 U+FE0F) as one, so text within a DTO's limit
 * overflowed its column (a 500, or a telemetry batch answered 202 then refused by the database).
 */
export const textLength = (value: string): number => {
  let n = 0;
  for (const _ of value) n++;
  return n;
};

const lengthWithin = (value: unknown, min?: number, max?: number): boolean => {
  if (typeof value !== 'string') return false;
  if (max !== undefined && max !== null && value.length <= max && (min === undefined || min === null || min <= 0))
    return true; // code points <= code units
  const n = textLength(value);
  return (min === undefined || min === null || n >= min) && (max === undefined || max === null || n <= max);
};

/**
 * Drop-in for class-validator's @Length counting code points (textLength): same rule name (`isLength`), constraints
 * and messages, so the OpenAPI document still shows minLength/maxLength. Every DTO imports it from here.
 */
export function Length(min: number, max?: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: IS_LENGTH,
      constraints: [min, max],
      validator: {
        validate: (value, args) => lengthWithin(value, args?.constraints[0], args?.constraints[1]),
        defaultMessage: buildMessage((each, args) => {
          const [lo, hi] = (args?.constraints ?? []) as [number | undefined, number | undefined];
          const n = typeof args?.value === 'string' ? textLength(args.value) : 0;
          if (lo !== null && lo !== undefined && (!args?.value || n < lo))
            return `${each}$property must be longer than or equal to $constraint1 characters`;
          if (hi !== null && hi !== undefined && n > hi)
            return `${each}$property must be shorter than or equal to $constraint2 characters`;
          return `${each}$property must be longer than or equal to $constraint1 and shorter than or equal to $constraint2 characters`;
        }, options),
      },
    },
    options,
  );
}

/** Drop-in for class-validator's @MaxLength counting code points (textLength); rule `maxLength`, same message. */
export function MaxLength(max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: MAX_LENGTH,
      constraints: [max],
      validator: {
        validate: (value, args) => lengthWithin(value, 0, args?.constraints[0]),
        defaultMessage: buildMessage(
          (each) => `${each}$property must be shorter than or equal to $constraint1 characters`,
          options,
        ),
      },
    },
    options,
  );
}

/** Drop-in for class-validator's @MinLength counting code points (textLength); rule `minLength`, same message. */
export function MinLength(min: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: MIN_LENGTH,
      constraints: [min],
      validator: {
        validate: (value, args) => lengthWithin(value, args?.constraints[0]),
        defaultMessage: buildMessage(
          (each) => `${each}$property must be longer than or equal to $constraint1 characters`,
          options,
        ),
      },
    },
    options,
  );
}

/**
 * Decimal places of a number as JSON writes it: 1e-7 has 7, 1.25e-5 has 7, 1e21 none. class-validator's
 * maxDecimalPlaces reads the digits after a "." of String(value), which exponent notation lacks (a TypeError, a 500).
 */
export const decimalPlaces = (value: number): number => {
  const [mantissa, exponent = '0'] = String(value).split('e');
  return Math.max(0, (mantissa.split('.')[1]?.length ?? 0) - Number(exponent));
};

/**
 * Drop-in for class-validator's @IsNumber (same rule name, so the OpenAPI document still says `number`): a finite
 * number with at most `maxDecimalPlaces` decimal places, counted by decimalPlaces. Every DTO imports it from here.
 */
export function IsNumber(
  options: Pick<IsNumberOptions, 'maxDecimalPlaces'> = {},
  validationOptions?: ValidationOptions,
): PropertyDecorator {
  return ValidateBy(
    {
      name: IS_NUMBER,
      constraints: [options],
      validator: {
        validate: (value) =>
          typeof value === 'number' &&
          Number.isFinite(value) &&
          (options.maxDecimalPlaces === undefined || decimalPlaces(value) <= options.maxDecimalPlaces),
        defaultMessage: buildMessage(
          (each) =>
            options.maxDecimalPlaces === undefined
              ? `${each}$property must be a number`
              : `${each}$property must be a number with at most ${options.maxDecimalPlaces} decimal places`,
          validationOptions,
        ),
      },
    },
    validationOptions,
  );
}

/** A text field that must hold more than blanks (most are stored trimmed, so blanks alone would be stored empty). */
export const IsNotBlank = (field: string) => Matches(/\S/, { message: `${field} must not be blank` });

/** `?limit=` of every list (answers are `{ items, nextCursor }`, see lib/pagination.ts). */
class PageLimit {
  @JSONSchema({ description: 'Page size (default 50, max 200)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit: number = 50;
}

/** `?limit=&cursor=` of a list paged by id. */
export class PageQuery extends PageLimit {
  @JSONSchema({ description: 'nextCursor of the previous page' }) @IsOptional() @IsUUID() cursor?: string;
}

/**
 * `?limit=&cursor=` of a list ordered by another column than the id (a keyset page, lib/pagination.ts
 * encodeCursor): the cursor is opaque, checked by the list (400 `validation_failed` on `cursor` when unreadable).
 */
export class KeysetPageQuery extends PageLimit {
  @JSONSchema({ description: 'nextCursor of the previous page (opaque; same filters)' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;
}

/**
 * UUIDs are case-insensitive (RFC 9562): every @IsUUID field reaches the use cases in lower case (toDto,
 * api/http/validate.ts), the form ids are compared, cached and stored as text in. Anything else is left as it is.
 */
export const canonicalUuid = (value: unknown): unknown =>
  typeof value === 'string' && isUUID(value) ? value.toLowerCase() : value;

/** A UUID already in its canonical, lower-case form: what a fast check (see toDto) may accept as is. */
export const isCanonicalUuid = (value: unknown): value is string =>
  typeof value === 'string' && isUUID(value) && value === value.toLowerCase();

/** A resource named by its UUID in the path (`/rooms/{id}`, `/orgs/{id}` ...): malformed is a 400, unknown a 404. */
export class IdParams {
  /** Every `/:id` route, the hottest ones included, skips the class-validator pass for a lower-case id (see toDto). */
  static fastAccept(params: unknown): boolean {
    const keys = Object.keys(params as object);
    const id = (params as { id?: unknown }).id;
    return keys.length === 1 && isCanonicalUuid(id);
  }

  @JSONSchema({ description: 'UUID, in any case (answered in lower case)' }) @IsUUID() id!: string;
}
