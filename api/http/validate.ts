import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { getMetadataStorage, IS_UUID, validate, ValidationTypes, type ValidationError } from 'class-validator';
import { getMetadataSchema } from 'class-validator-jsonschema/build/decorators';
import { badRequest, type FieldError } from '../../lib/errors';
import { inputProblems } from '../../lib/json';
import { canonicalUuid } from './dtos';

export type Source = 'body' | 'query' | 'params';

/**
 * class-validator finds a class's rules by scanning every registered class (an `instanceof` each, for inherited
 * rules) on every validate call and for every nested object; with the suite's hundreds of DTO and view classes
 * that is ~20 us of a request. Decorators register rules as modules load, so the lookup is memoised per class
 * and options, and the memo is dropped whenever a rule is registered (a module loaded late).
 */
const storage = getMetadataStorage();
const lookUpRules = storage.getTargetValidationMetadatas.bind(storage);
const registerRule = storage.addValidationMetadata.bind(storage);
const rules = new Map<string | ClassConstructor<unknown>, Map<string, ReturnType<typeof lookUpRules>>>();
storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
  let byOptions = rules.get(target as ClassConstructor<unknown>);
  if (!byOptions) rules.set(target as ClassConstructor<unknown>, (byOptions = new Map()));
  const key = JSON.stringify([schema, always, strictGroups, groups ?? null]);
  let found = byOptions.get(key);
  if (!found) byOptions.set(key, (found = lookUpRules(target, schema, always, strictGroups, groups)));
  return found;
};
storage.addValidationMetadata = (metadata) => {
  rules.clear();
  registerRule(metadata);
};

/**
 * Turns a plain value into a validated DTO instance, or throws 400 `validation_failed` with one entry per
 * field (nested paths like `events[3].type`). Rules every DTO gets without declaring them:
 *  - unknown fields are refused on bodies (writes) and on queries (a typo in a filter should not silently
 *    list everything);
 *  - no string and no key may hold text PostgreSQL cannot store (NUL, unpaired surrogate), whatever the
 *    field, free-form JSON included, and no key may be `__proto__`, `constructor` or `prototype`;
 *  - `null` is refused unless the field's JSONSchema declares it nullable (`type: [..., 'null']`), where
 *    it means "clear this field". class-validator's @IsOptional lets null through; the use cases expect
 *    a value or undefined;
 *  - a UUID field (@IsUUID, in the path, the query or the body, nested DTOs included) is handed on in lower
 *    case: UUIDs are case-insensitive (RFC 9562), and ids are compared, cached and stored as text in lower case.
 */
export async function toDto<T extends object>(Dto: ClassConstructor<T>, value: unknown, source: Source): Promise<T> {
  if (value === undefined && source !== 'body') value = {};
  const refused = inputProblems(value);
  if (refused.length)
    throw badRequest(
      'validation_failed',
      `The request ${source} is invalid`,
      refused.map((p) => ({ field: p.field || source, message: p.message })),
    );
  if ((Dto as FastAccepting).fastAccept?.(value)) return value as T;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('validation_failed', `The request ${source} must be a JSON object`, [
      { field: source, message: 'must be an object' },
    ]);
  }
  const instance = plainToInstance(Dto, value, { exposeDefaultValues: true });
  const errors = flatten(
    await validate(instance, {
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      validationError: { target: false, value: false },
    }),
  );
  const named = new Set(errors.map((e) => e.field));
  errors.push(
    ...nestedNotObjects(instance)
      .filter((field) => !named.has(field))
      .map((field) => ({ field, message: 'must be an object' })),
  );
  errors.push(
    ...nullsRefused(instance)
      .filter((field) => !named.has(field))
      .map((field) => ({ field, message: 'must not be null (omit the field to keep its value)' })),
  );
  if (errors.length) throw badRequest('validation_failed', `The request ${source} is invalid`, errors);
  lowerCaseUuids(instance);
  return instance;
}

/**
 * A DTO of a hot route may declare `static fastAccept(value): boolean`, a hand-written check at least as
 * strict as its decorators (tested to be). What it accepts is used as is: no class-transformer copy, no
 * class-validator pass (~1 ms for a batch of 50 nested objects). Anything else takes the full path and gets
 * its field-level errors. (The text check above runs before it: a fast check need not repeat it.)
 */
interface FastAccepting {
  fastAccept?(value: unknown): boolean;
}

/** Fields of a DTO instance (nested DTOs included) holding null without being declared nullable. */
function nullsRefused(instance: object, prefix = ''): string[] {
  return Object.entries(instance).flatMap(([key, value]) => {
    const field = prefix ? `${prefix}.${key}` : key;
    if (value === null) return isNullable(instance, key) ? [] : [field];
    if (Array.isArray(value))
      return value.flatMap((item, i) => (isDto(item) ? nullsRefused(item, `${field}[${i}]`) : []));
    return isDto(value) ? nullsRefused(value, field) : [];
  });
}

/**
 * Fields of a DTO instance (nested DTOs included) whose @ValidateNested value, or item of a list, is not an object:
 * class-validator walks an array found there as a list of the DTO, so `[[]]` passed for a list of objects as one
 * empty item, which the use case then read as an object.
 */
function nestedNotObjects(instance: object, prefix = ''): string[] {
  const record = instance as Record<string, unknown>;
  const out: string[] = [];
  for (const rule of storage.getTargetValidationMetadatas(instance.constructor, '', true, false)) {
    const value = record[rule.propertyName];
    if (rule.type !== ValidationTypes.NESTED_VALIDATION || value === undefined || value === null) continue;
    const field = prefix ? `${prefix}.${rule.propertyName}` : rule.propertyName;
    const items: [string, unknown][] =
      rule.each && Array.isArray(value) ? value.map((item, i) => [`${field}[${i}]`, item]) : [[field, value]];
    for (const [at, item] of items) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) out.push(at);
      else if (isDto(item)) out.push(...nestedNotObjects(item, at));
    }
  }
  return out;
}

/** Puts the @IsUUID fields of a validated DTO instance (and of its nested DTOs) in lower case, in place. */
function lowerCaseUuids(instance: object): void {
  const record = instance as Record<string, unknown>;
  for (const rule of storage.getTargetValidationMetadatas(instance.constructor, '', true, false)) {
    const value = record[rule.propertyName];
    if (rule.name !== IS_UUID || value === undefined || value === null) continue;
    record[rule.propertyName] = Array.isArray(value) ? value.map(canonicalUuid) : canonicalUuid(value);
  }
  for (const value of Object.values(record)) {
    if (Array.isArray(value)) value.forEach((item) => isDto(item) && lowerCaseUuids(item));
    else if (isDto(value)) lowerCaseUuids(value);
  }
}

/** An instance of a DTO class (free-form JSON stays plain objects, where null is data). */
const isDto = (value: unknown): value is object =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) !== Object.prototype;

function isNullable(instance: object, key: string): boolean {
  const schema = getMetadataSchema(instance, key) as { type?: unknown; nullable?: boolean };
  return schema.nullable === true || (Array.isArray(schema.type) && schema.type.includes('null'));
}

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = /^\d+$/.test(e.property)
      ? `${prefix}[${e.property}]`
      : prefix
        ? `${prefix}.${e.property}`
        : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({
      field,
      message: message.replace(/^property \S+ /, ''),
    }));
    return [...own, ...flatten(e.children ?? [], field)];
  });
}
