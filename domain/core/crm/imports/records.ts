import {
  contactTypes,
  customerKinds,
  customerRoles,
  type ContactPoint,
  type CustomerKind,
  type PostalAddress,
} from '../../../../entities/core/customer';
import type { FieldError } from '../../../../lib/errors';
import { isEmail, normaliseAddresses, normaliseEmails, normalisePhones } from '../contactDetails';
import { isCalendarDate } from '../../../../lib/calendar';

/**
 * Checks of imported records, written by hand: a bulk call carries up to 10,000 of them and class-validator
 * would spend more time on them than the database does storing them. The rules are those of the customer and
 * deal DTOs (api/core/crm/dtos.ts); a record that breaks one is reported with its index and field, the others
 * are stored.
 */
export class RecordErrors {
  readonly list: FieldError[] = [];
  add(field: string, message: string) {
    this.list.push({ field, message });
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown, min: number, max: number): v is string =>
  typeof v === 'string' && v.trim().length >= min && v.length <= max;

export function str(
  e: RecordErrors,
  r: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  required: boolean,
): string | undefined {
  const v = r[field];
  if (v === undefined || v === null) {
    if (required) e.add(field, 'is required');
    return undefined;
  }
  if (!text(v, min, max)) e.add(field, `must be a text of ${min}-${max} characters`);
  else return v.trim();
  return undefined;
}

function list<T>(
  e: RecordErrors,
  r: Record<string, unknown>,
  field: string,
  max: number,
  item: (v: unknown, at: string) => T | undefined,
): T[] {
  const v = r[field];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.length > max) {
    e.add(field, `must be a list of at most ${max} items`);
    return [];
  }
  const out: T[] = [];
  v.forEach((x, i) => {
    const parsed = item(x, `${field}[${i}]`);
    if (parsed !== undefined) out.push(parsed);
  });
  return out;
}

const point = (e: RecordErrors, kind: 'email' | 'phone') => (v: unknown, at: string) => {
  if (!isObject(v)) return void e.add(at, 'must be an object { type?, value, primary? }');
  for (const k of Object.keys(v)) if (!['type', 'value', 'primary'].includes(k)) e.add(`${at}.${k}`, 'is not a field');
  if (v.type !== undefined && !contactTypes.includes(v.type as ContactPoint['type']))
    e.add(`${at}.type`, `must be one of ${contactTypes.join(', ')}`);
  if (v.primary !== undefined && typeof v.primary !== 'boolean') e.add(`${at}.primary`, 'must be a boolean');
  const ok =
    kind === 'email'
      ? typeof v.value === 'string' && isEmail(v.value.trim())
      : text(v.value, 3, 40) && /^[+0-9 ().\-/]+$/.test(v.value);
  if (!ok)
    return void e.add(
      `${at}.value`,
      kind === 'email'
        ? 'must be an e-mail address'
        : 'must be a phone number (digits, spaces, + ( ) . - /; 3-40 characters)',
    );
  return v as { type?: ContactPoint['type']; value: string; primary?: boolean };
};

const address = (e: RecordErrors) => (v: unknown, at: string) => {
  if (!isObject(v)) return void e.add(at, 'must be an object');
  const fields: Record<string, number> = { line1: 200, line2: 200, postalCode: 20, city: 100, region: 100 };
  for (const k of Object.keys(v))
    if (!(k in fields) && !['type', 'country', 'primary'].includes(k)) e.add(`${at}.${k}`, 'is not a field');
  if (!text(v.line1, 1, 200)) e.add(`${at}.line1`, 'must be a text of 1-200 characters');
  for (const [k, max] of Object.entries(fields))
    if (k !== 'line1' && v[k] !== undefined && v[k] !== null && !text(v[k], 0, max))
      e.add(`${at}.${k}`, `must be a text of at most ${max} characters`);
  if (
    v.country !== undefined &&
    v.country !== null &&
    !(typeof v.country === 'string' && /^[A-Za-z]{2}$/.test(v.country))
  )
    e.add(`${at}.country`, 'must be an ISO 3166-1 alpha-2 code');
  if (v.type !== undefined && !contactTypes.includes(v.type as ContactPoint['type']))
    e.add(`${at}.type`, `must be one of ${contactTypes.join(', ')}`);
  if (v.primary !== undefined && typeof v.primary !== 'boolean') e.add(`${at}.primary`, 'must be a boolean');
  return v as Partial<PostalAddress> & { line1: string };
};

export interface ImportedCustomer {
  externalId: string;
  kind: CustomerKind;
  name: string;
  roles: string[];
  tags: string[];
  emails: ContactPoint[];
  phones: ContactPoint[];
  addresses: PostalAddress[];
  custom: Record<string, unknown>;
}

const CUSTOMER_FIELDS = new Set([
  'externalId',
  'kind',
  'name',
  'roles',
  'tags',
  'emails',
  'phones',
  'addresses',
  'custom',
]);

/** A customer record of a bulk import, or its field errors (custom values are checked by the caller). */
export function parseCustomerRecord(
  raw: unknown,
): { record: ImportedCustomer } | { errors: FieldError[]; externalId: string | null } {
  const e = new RecordErrors();
  if (!isObject(raw)) return { errors: [{ field: 'record', message: 'must be an object' }], externalId: null };
  for (const k of Object.keys(raw)) if (!CUSTOMER_FIELDS.has(k)) e.add(k, 'is not a field');
  const externalId = str(e, raw, 'externalId', 1, 200, true);
  const name = str(e, raw, 'name', 1, 200, true);
  const kind = raw.kind ?? 'person';
  if (!customerKinds.includes(kind as CustomerKind)) e.add('kind', `must be one of ${customerKinds.join(', ')}`);
  const roles = list(e, raw, 'roles', 10, (v, at) =>
    customerRoles.includes(v as (typeof customerRoles)[number])
      ? (v as string)
      : void e.add(at, `must be one of ${customerRoles.join(', ')}`),
  );
  const tags = list(e, raw, 'tags', 50, (v, at) =>
    text(v, 1, 50) && !/\p{Cc}/u.test(v)
      ? v.trim().toLowerCase()
      : void e.add(at, 'must be a text of 1-50 characters without control characters'),
  );
  const emails = list(e, raw, 'emails', 10, point(e, 'email'));
  const phones = list(e, raw, 'phones', 10, point(e, 'phone'));
  const addresses = list(e, raw, 'addresses', 10, address(e));
  const custom = raw.custom ?? {};
  if (!isObject(custom)) e.add('custom', 'must be an object of values by field key');
  if (e.list.length)
    return { errors: e.list, externalId: typeof raw.externalId === 'string' ? raw.externalId.slice(0, 200) : null };
  return {
    record: {
      externalId: externalId!,
      kind: kind as CustomerKind,
      name: name!,
      roles: [...new Set(roles)],
      tags: [...new Set(tags)],
      emails: normaliseEmails(emails),
      phones: normalisePhones(phones),
      addresses: normaliseAddresses(addresses),
      custom: custom as Record<string, unknown>,
    },
  };
}

export interface ImportedDeal {
  externalId: string;
  title: string;
  customerExternalId?: string;
  customerId?: string;
  stageId?: string;
  amount: number;
  currency: string;
  expectedCloseDate: string | null;
}

const DEAL_FIELDS = new Set([
  'externalId',
  'title',
  'customerExternalId',
  'customerId',
  'stageId',
  'amount',
  'currency',
  'expectedCloseDate',
]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A deal record of a bulk import, or its field errors (customer and stage are resolved by the caller). */
export function parseDealRecord(
  raw: unknown,
): { record: ImportedDeal } | { errors: FieldError[]; externalId: string | null } {
  const e = new RecordErrors();
  if (!isObject(raw)) return { errors: [{ field: 'record', message: 'must be an object' }], externalId: null };
  for (const k of Object.keys(raw)) if (!DEAL_FIELDS.has(k)) e.add(k, 'is not a field');
  const externalId = str(e, raw, 'externalId', 1, 200, true);
  const title = str(e, raw, 'title', 1, 200, true);
  const customerExternalId = str(e, raw, 'customerExternalId', 1, 200, false);
  const customerId = raw.customerId;
  if (customerId !== undefined && !(typeof customerId === 'string' && UUID.test(customerId)))
    e.add('customerId', 'must be a UUID');
  if (
    (customerId === undefined) === (customerExternalId === undefined) &&
    !e.list.some((x) => x.field === 'customerExternalId')
  )
    e.add('customerId', 'give either customerId or customerExternalId');
  if (raw.stageId !== undefined && !(typeof raw.stageId === 'string' && UUID.test(raw.stageId)))
    e.add('stageId', 'must be a UUID');
  const amount = raw.amount;
  if (!(typeof amount === 'number' && Number.isSafeInteger(amount) && amount >= 0))
    e.add('amount', 'must be a whole number of cents, 0 or more');
  if (!(typeof raw.currency === 'string' && /^[A-Z]{3}$/.test(raw.currency)))
    e.add('currency', 'must be an ISO 4217 code in capitals (EUR)');
  const close = raw.expectedCloseDate;
  // A day that exists: PostgreSQL's date refuses 2024-04-31, and would fail the statement of the whole chunk.
  if (close !== undefined && close !== null && !isCalendarDate(close))
    e.add('expectedCloseDate', 'must be a date YYYY-MM-DD that exists');
  if (e.list.length)
    return { errors: e.list, externalId: typeof raw.externalId === 'string' ? raw.externalId.slice(0, 200) : null };
  return {
    record: {
      externalId: externalId!,
      title: title!,
      customerExternalId,
      // Lower case, as PostgreSQL writes uuids: the caller resolves them through (case-sensitive) Sets and Maps.
      customerId: (customerId as string | undefined)?.toLowerCase(),
      stageId: (raw.stageId as string | undefined)?.toLowerCase(),
      amount: amount as number,
      currency: raw.currency as string,
      expectedCloseDate: (close as string | null | undefined) ?? null,
    },
  };
}
