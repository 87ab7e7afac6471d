import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { canonicalUuid, IsInstant, IsXmlText, Length, MaxLength, PageQuery } from '../../http/dtos';
import { activityTypes, type ActivityType } from '../../../entities/core/activity';
import {
  contactTypes,
  customerKinds,
  customerRoles,
  type ContactType,
  type CustomerKind,
  type CustomerRole,
} from '../../../entities/core/customer';
import { customFieldTypes, type CustomFieldType } from '../../../entities/core/customField';
import { relationTypes, type RelationType } from '../../../entities/core/relation';
import { CUSTOM_KEY } from '../../../domain/core/crm/customValues';
import { customerSorts, type CustomerSort } from '../../../domain/core/crm/listCustomers';
import { exportResources, type ExportResource } from '../../../domain/core/crm/exportRecords';
import { MAX_IMPORT_RECORDS } from '../../../domain/core/crm/imports/startImport';
import { tooLarge } from '../../../lib/errors';
import {
  createCustomerBodyCustomDoc,
  listCustomersQueryQDoc,
  listCustomersQueryCustomDoc,
  relationBodyTypeDoc,
  exportQueryFormatDoc,
  exportQueryResourceDoc,
} from './dtos.docs';

/** Request bodies, queries and path parameters of the CRM routes. Unknown fields are refused. */

const PHONE = /^[+0-9 ().\-/]{3,40}$/;
export const nullable = (description: string, type = 'string') =>
  ({ description, type: [type, 'null'] }) as unknown as Parameters<typeof JSONSchema>[0];

export class ContactEmailBody {
  @IsOptional() @IsIn(contactTypes) type?: ContactType;
  @IsEmail() @MaxLength(320) value!: string;
  @JSONSchema({ description: 'The primary address (one per list; the first when none is marked)' })
  @IsOptional()
  @IsBoolean()
  primary?: boolean;
}

export class ContactPhoneBody {
  @IsOptional() @IsIn(contactTypes) type?: ContactType;
  @JSONSchema({ description: 'As written (digits, spaces, + ( ) . - /); search matches its digits' })
  @Matches(PHONE, { message: 'value must be a phone number (digits, spaces, + ( ) . - /; 3-40 characters)' })
  value!: string;
  @IsOptional() @IsBoolean() primary?: boolean;
}

export class AddressBody {
  @IsOptional() @IsIn(contactTypes) type?: ContactType;
  @IsString() @Length(1, 200) line1!: string;
  @IsOptional() @IsString() @MaxLength(200) line2?: string;
  @IsOptional() @IsString() @MaxLength(20) postalCode?: string;
  @IsOptional() @IsString() @MaxLength(100) city?: string;
  @IsOptional() @IsString() @MaxLength(100) region?: string;
  @JSONSchema({ description: 'ISO 3166-1 alpha-2' })
  @IsOptional()
  @Matches(/^[A-Za-z]{2}$/, { message: 'country must be an ISO 3166-1 alpha-2 code' })
  country?: string;
  @IsOptional() @IsBoolean() primary?: boolean;
}

export class CreateCustomerBody {
  @IsIn(customerKinds) kind!: CustomerKind;
  @JSONSchema({ description: 'Printed as the buyer on invoices (Factur-X XML): no control characters' })
  @IsString()
  @Length(1, 200)
  @IsXmlText()
  name!: string;
  @IsOptional() @IsArray() @ArrayMaxSize(10) @IsIn(customerRoles, { each: true }) roles?: CustomerRole[];
  @JSONSchema({ description: 'Free labels (stored lower-cased, at most 50)' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Length(1, 50, { each: true })
  @Matches(/^\P{Cc}*$/u, { each: true, message: 'tags must not hold control characters' })
  tags?: string[];
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => ContactEmailBody)
  emails?: ContactEmailBody[];
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => ContactPhoneBody)
  phones?: ContactPhoneBody[];
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => AddressBody)
  addresses?: AddressBody[];
  @JSONSchema({
    description: createCustomerBodyCustomDoc,
    type: 'object',
    additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
  })
  @IsOptional()
  @IsObject()
  custom?: Record<string, unknown>;
  @JSONSchema(nullable('A member responsible for the relationship'))
  @IsOptional()
  @IsUUID()
  ownerId?: string | null;
  @JSONSchema(nullable('Id in another system (unique per organisation; the integration hub upserts by it)'))
  @IsOptional()
  @IsString()
  @Length(1, 200)
  externalId?: string | null;
}

export class UpdateCustomerBody {
  @IsOptional() @IsIn(customerKinds) kind?: CustomerKind;
  @IsOptional() @IsString() @Length(1, 200) @IsXmlText() name?: string;
  @IsOptional() @IsArray() @ArrayMaxSize(10) @IsIn(customerRoles, { each: true }) roles?: CustomerRole[];
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @Length(1, 50, { each: true })
  @Matches(/^\P{Cc}*$/u, { each: true, message: 'tags must not hold control characters' })
  tags?: string[];
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => ContactEmailBody)
  emails?: ContactEmailBody[];
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => ContactPhoneBody)
  phones?: ContactPhoneBody[];
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => AddressBody)
  addresses?: AddressBody[];
  @JSONSchema({
    description: 'Merged into the current values; null removes a value',
    type: 'object',
    additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
  })
  @IsOptional()
  @IsObject()
  custom?: Record<string, unknown>;
  @JSONSchema(nullable('A member responsible for the relationship; null clears'))
  @IsOptional()
  @IsUUID()
  ownerId?: string | null;
  @JSONSchema(nullable('Id in another system; null clears'))
  @IsOptional()
  @IsString()
  @Length(1, 200)
  externalId?: string | null;
}

const asList = ({ value }: { value: unknown }) =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];

/** The filters of the customer list (a saved view holds the same). */
export class CustomerFilters {
  @IsOptional() @IsIn(customerKinds) kind?: CustomerKind;
  @IsOptional() @IsIn(customerRoles) role?: CustomerRole;
  @IsOptional() @IsString() @Length(1, 50) tag?: string;
  @JSONSchema({ description: listCustomersQueryQDoc })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  q?: string;
  @JSONSchema({ description: listCustomersQueryCustomDoc, type: 'array', items: { type: 'string' } })
  @IsOptional()
  @Transform(asList)
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  @Matches(/^[a-z][a-z0-9_]{0,63}:.{0,200}$/s, { each: true, message: 'custom must be key:value' })
  custom?: string[];
}

export const customerFilterNames = ['kind', 'role', 'tag', 'q', 'custom'] as const;

export class ListCustomersQuery extends CustomerFilters {
  @JSONSchema({ description: 'Page size (default 50, max 200)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit: number = 50;
  @JSONSchema({ description: 'nextCursor of the previous page (same filters and sort)' })
  @IsOptional()
  @IsString()
  @MaxLength(600)
  cursor?: string;
  @JSONSchema({ description: 'name (default), createdAt, updatedAt, `-` for descending; relevance (default with q)' })
  @IsOptional()
  @IsIn(customerSorts)
  sort?: CustomerSort;
  @JSONSchema({
    description:
      "A saved view (GET /api/customers/views): its filters and sort apply; a filter or sort given here replaces the view's",
  })
  @IsOptional()
  @IsUUID()
  view?: string;
}

export class CustomFieldParams {
  @Matches(CUSTOM_KEY, {
    message: 'key must be 1-64 characters: lowercase letters, digits and _, starting with a letter',
  })
  key!: string;
}

export class DefineCustomFieldBody {
  @IsString() @Length(1, 120) label!: string;
  @IsIn(customFieldTypes) type!: CustomFieldType;
  @JSONSchema({ description: 'The allowed values of a select field (required for select, absent otherwise)' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  @Length(1, 100, { each: true })
  options?: string[];
}

export class RelationBody {
  @JSONSchema({ description: relationBodyTypeDoc })
  @IsIn(relationTypes)
  type!: RelationType;
  @IsUUID() customerId!: string;
}

export class RelationParams {
  @IsUUID() id!: string;
  @IsUUID() relationId!: string;
}

export class ActivityBody {
  @IsIn(activityTypes) type!: ActivityType;
  @IsString() @Length(1, 200) subject!: string;
  @IsOptional() @IsString() @MaxLength(20_000) body?: string;
  @JSONSchema({ description: 'When it happened or is planned (default: dueAt, else now)', type: 'string' })
  @IsOptional()
  @IsInstant()
  @MaxLength(40)
  occurredAt?: string;
  @JSONSchema(nullable('Due date of a follow-up'))
  @IsOptional()
  @IsInstant()
  @MaxLength(40)
  dueAt?: string | null;
  @JSONSchema(nullable('A member (tasks default to their creator)'))
  @IsOptional()
  @IsUUID()
  assigneeId?: string | null;
  @JSONSchema({
    description: 'Done already; default: notes and e-mails yes, tasks no, calls and meetings unless they have a dueAt',
  })
  @IsOptional()
  @IsBoolean()
  completed?: boolean;
}

export class UpdateActivityBody {
  @JSONSchema({ description: 'true completes (now), false reopens' })
  @IsOptional()
  @IsBoolean()
  completed?: boolean;
  @IsOptional() @IsString() @Length(1, 200) subject?: string;
  @IsOptional() @IsString() @MaxLength(20_000) body?: string;
  @IsOptional() @IsInstant() @MaxLength(40) occurredAt?: string;
  @JSONSchema(nullable('Due date; null clears'))
  @IsOptional()
  @IsInstant()
  @MaxLength(40)
  dueAt?: string | null;
  @JSONSchema(nullable('A member; null clears'))
  @IsOptional()
  @IsUUID()
  assigneeId?: string | null;
}

export class TasksQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(200) limit: number = 50;
  @IsOptional() @IsString() @MaxLength(200) cursor?: string;
  @JSONSchema({ description: 'me (default), anyone, or a member id' })
  @IsOptional()
  @Transform(({ value }) => canonicalUuid(value))
  @Matches(/^(me|anyone|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i, {
    message: 'assignee must be me, anyone or a member id',
  })
  assignee: string = 'me';
  @JSONSchema({ description: 'overdue (due before now), soon (due within `days`), all (default)' })
  @IsOptional()
  @IsIn(['overdue', 'soon', 'all'])
  due: 'overdue' | 'soon' | 'all' = 'all';
  @JSONSchema({ description: 'Horizon of due=soon in days (default 7)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(365)
  days: number = 7;
}

export class TimelineQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(200) limit: number = 50;
  @IsOptional() @IsString() @MaxLength(300) cursor?: string;
  @JSONSchema({ description: 'Items at or after this time', type: 'string' })
  @IsOptional()
  @IsInstant()
  @MaxLength(40)
  from?: string;
  @JSONSchema({ description: 'Items before this time', type: 'string' })
  @IsOptional()
  @IsInstant()
  @MaxLength(40)
  to?: string;
  @JSONSchema({
    description: 'Only these sources (activity, invoice, appointment ...), repeatable',
    type: 'array',
    items: { type: 'string' },
  })
  @IsOptional()
  @Transform(asList)
  @IsArray()
  @ArrayMaxSize(10)
  @Matches(/^[a-z][a-z_]{0,39}$/, { each: true })
  sources?: string[];
}

export class BulkBody {
  /** The envelope only: each record is checked by the use case (customers at the call, deals in the worker) and reported in the import's status. */
  static fastAccept(body: unknown): boolean {
    if (typeof body !== 'object' || body === null) return false;
    const { records } = body as { records?: unknown };
    if (Array.isArray(records) && records.length > MAX_IMPORT_RECORDS)
      throw tooLarge('batch_too_large', `A call holds at most ${MAX_IMPORT_RECORDS} records; split it`);
    return Object.keys(body).length === 1 && Array.isArray(records) && records.length >= 1;
  }

  @JSONSchema({
    description: `1 to ${MAX_IMPORT_RECORDS} records (more: 413 batch_too_large), each checked on its own`,
    type: 'array',
    items: { type: 'object', additionalProperties: true },
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_IMPORT_RECORDS)
  records!: Record<string, unknown>[];
}

export class PublicCustomersQuery extends PageQuery {
  @IsOptional() @IsString() @Length(1, 200) externalId?: string;
  @IsOptional() @IsIn(customerKinds) kind?: CustomerKind;
  @IsOptional() @IsIn(customerRoles) role?: CustomerRole;
}

export class SyncedActivityBody {
  @IsString() @Length(1, 200) externalId!: string;
  @JSONSchema({ description: 'The customer; or give customerEmail' })
  @IsOptional()
  @IsUUID()
  customerId?: string;
  @JSONSchema({ description: 'Found by primary e-mail, or created as a person' })
  @IsOptional()
  @IsEmail()
  @MaxLength(320)
  customerEmail?: string;
  @IsOptional() @IsString() @Length(1, 200) customerName?: string;
  @IsIn(activityTypes) type!: ActivityType;
  @IsString() @Length(1, 200) subject!: string;
  @IsOptional() @IsString() @MaxLength(20_000) body?: string;
  @IsInstant() @MaxLength(40) occurredAt!: string;
  @JSONSchema(nullable('Due date of a follow-up'))
  @IsOptional()
  @IsInstant()
  @MaxLength(40)
  dueAt?: string | null;
  @JSONSchema(nullable('Completion time (default: occurredAt, except for tasks and dated follow-ups)'))
  @IsOptional()
  @IsInstant()
  @MaxLength(40)
  completedAt?: string | null;
}

export class ActivitySyncBody {
  @IsUUID() tenantId!: string;
  @JSONSchema({
    description: 'The system the activities come from (calendar, telephony ...): with externalId, the key of an upsert',
  })
  @Matches(/^[a-z0-9][a-z0-9_.-]{0,39}$/, {
    message: 'source must be 1-40 characters: lowercase letters, digits, _ . -',
  })
  source!: string;
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => SyncedActivityBody)
  activities!: SyncedActivityBody[];
}

export class MailboxBody {
  @IsEmail() @MaxLength(320) email!: string;
  @IsOptional() @IsString() @Length(1, 200) name?: string;
}

export class LogEmailBody {
  @IsUUID() tenantId!: string;
  @IsString() @Length(1, 200) messageId!: string;
  @JSONSchema({ description: 'inbound: logged on the sender; outbound: on each recipient (to and cc)' })
  @IsIn(['inbound', 'outbound'])
  direction!: 'inbound' | 'outbound';
  @ValidateNested() @Type(() => MailboxBody) from!: MailboxBody;
  @IsArray() @ArrayMaxSize(50) @ValidateNested({ each: true }) @Type(() => MailboxBody) to!: MailboxBody[];
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => MailboxBody)
  cc?: MailboxBody[];
  @IsString() @MaxLength(200) subject!: string;
  @IsOptional() @IsString() @MaxLength(100_000) body?: string;
  @IsInstant() @MaxLength(40) sentAt!: string;
}

export class ExportQuery {
  @JSONSchema({ description: exportQueryFormatDoc })
  @IsOptional()
  @IsIn(['jsonl', 'csv'])
  format: 'jsonl' | 'csv' = 'jsonl';
  @JSONSchema({ description: exportQueryResourceDoc })
  @IsOptional()
  @IsIn(exportResources)
  resource?: ExportResource;
}
