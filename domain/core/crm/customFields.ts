import { CustomField, type CustomFieldType } from '../../../entities/core/customField';
import type { CustomValues } from '../../../entities/core/customer';
import { badRequest, conflict, notFound, type FieldError } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import type { Em } from '../../../lib/db';
import { lean, type LeanScope } from '../../../lib/lean';
import { isCalendarDate } from '../../../lib/calendar';
import { newId } from '../../../entities/base';
import { crmFieldPurgeQueue } from '../../../queues/crm';
import { enqueueStaged, stageJob } from '../../jobs/stageJob';

export const CUSTOM_KEY = /^[a-z][a-z0-9_]{0,63}$/;
export const MAX_CUSTOM_FIELDS = 100;
const MAX_TEXT = 2000;

export interface DefineCustomFieldProps {
  label: string;
  type: CustomFieldType;
  options?: string[];
}

export const listCustomFields = (ctx: TenantContext): Promise<CustomField[]> => ctx.em.find(CustomField, {}, { orderBy: { key: 'asc' } });

export async function getCustomField(ctx: TenantContext, key: string): Promise<CustomField> {
  const field = await ctx.em.findOne(CustomField, { key });
  if (!field) throw notFound('Custom field');
  return field;
}

/**
 * Creates or replaces the definition of a custom field (PUT). Changing the type of a field that has values is
 * refused (409 `field_in_use`): the stored values would no longer match it. Values of options removed from a
 * select stay stored until the customer is next written, where they are refused. A new definition starts with
 * no values: those a deleted field of the same key left (its purge not run yet) are removed first.
 */
export async function defineCustomField(ctx: TenantContext, key: string, props: DefineCustomFieldProps): Promise<{ field: CustomField; created: boolean }> {
  const options = props.type === 'select' ? [...new Set((props.options ?? []).map((o) => o.trim()).filter(Boolean))] : [];
  if (props.type === 'select' && !options.length) throw badRequest('validation_failed', 'A select field needs options', [{ field: 'options', message: 'must list at least one option for a select field' }]);
  if (props.type !== 'select' && props.options?.length) throw badRequest('validation_failed', 'Only select fields have options', [{ field: 'options', message: `must be absent for a ${props.type} field` }]);
  return ctx.em.transactional(async (em) => {
    await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`crm_custom_fields:${ctx.tenantId}`]);
    const existing = await em.findOne(CustomField, { key });
    if (existing) {
      if (existing.type !== props.type && (await fieldHasValues(em, ctx.tenantId, key))) {
        throw conflict('field_in_use', `Customers have values for ${key}: its type cannot change from ${existing.type} to ${props.type}; delete the field first`);
      }
      existing.label = props.label.trim();
      existing.type = props.type;
      existing.options = options;
      return { field: existing, created: false };
    }
    if ((await em.count(CustomField, {})) >= MAX_CUSTOM_FIELDS) throw conflict('custom_field_limit_reached', `An organisation has at most ${MAX_CUSTOM_FIELDS} custom fields`);
    // Under the lock the purge takes too: values of the old definition never show under the new one.
    await purgeValues(em, ctx.tenantId, key);
    return { field: em.create(CustomField, { tenantId: ctx.tenantId, key, label: props.label.trim(), type: props.type, options }), created: true };
  });
}

async function fieldHasValues(em: Em, tenantId: string, key: string): Promise<boolean> {
  const rows = await em.execute<{ one: number }[]>('select 1 as one from crm_customers where tenant_id = ? and jsonb_exists(custom, ?) limit 1', [tenantId, key]);
  return rows.length > 0;
}

/** Removes the stored values of `key` from the organisation's customers; the number of customers changed. */
export async function purgeValues(em: Em, tenantId: string, key: string): Promise<number> {
  const result = await em.execute('update crm_customers set custom = custom - ? where tenant_id = ? and jsonb_exists(custom, ?)', [key, tenantId, key], 'run');
  return (result as { affectedRows?: number }).affectedRows ?? 0;
}

/**
 * Deletes the definition. Its values disappear from every answer at once (only defined keys are shown) and are
 * purged from the stored customers by the crm-field-purge worker, its job committed with the deletion. A key
 * no longer defined whose values are still stored (the purge has not run yet) is deleted again: its purge is
 * requested again; otherwise 404.
 */
export async function deleteCustomField(ctx: TenantContext, key: string): Promise<void> {
  const field = await ctx.em.findOne(CustomField, { key });
  if (!field && !(await fieldHasValues(ctx.em, ctx.tenantId, key))) throw notFound('Custom field');
  if (field) ctx.em.remove(field);
  const purge = stageJob(ctx.em, crmFieldPurgeQueue, { tenantId: ctx.tenantId, key }, `crm-field-purge.${newId()}`);
  await ctx.em.flush();
  await enqueueStaged(ctx.services, [purge]);
}

/** The value as stored for the field's type, or the reason it does not fit. */
export function coerceCustomValue(type: CustomFieldType, options: string[], value: unknown): { value: string | number | boolean } | { error: string } {
  switch (type) {
    case 'text':
      return typeof value === 'string' && value.length <= MAX_TEXT ? { value } : { error: `must be a text of at most ${MAX_TEXT} characters` };
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? { value } : { error: 'must be a number' };
    case 'boolean':
      return typeof value === 'boolean' ? { value } : { error: 'must be true or false' };
    case 'date':
      return isCalendarDate(value) ? { value } : { error: 'must be a date YYYY-MM-DD' };
    case 'select':
      return typeof value === 'string' && options.includes(value) ? { value } : { error: `must be one of: ${options.join(', ')}` };
  }
}

export type FieldDefinitions = Map<string, Pick<CustomField, 'type' | 'options'>>;

// A lean statement (docs/database-path.md): every customer read and write presents or checks custom values.
const definitions = lean(CustomField, {});

/** The organisation's custom field definitions by key. */
export async function fieldDefinitions(scope: LeanScope): Promise<FieldDefinitions> {
  const fields = await definitions.all(scope);
  return new Map(fields.map((f) => [f.key, { type: f.type, options: f.options }]));
}

/**
 * Applies a change of custom values to the current ones: a key set to null is removed; every other value must
 * fit its field's definition. Field errors are named `custom.<key>` (prefixed by `field`).
 */
export function applyCustomValues(defs: FieldDefinitions, current: CustomValues, changes: Record<string, unknown>, field = 'custom'): { values: CustomValues; errors: FieldError[] } {
  const values: CustomValues = {};
  for (const [k, v] of Object.entries(current)) if (defs.has(k)) values[k] = v;
  const errors: FieldError[] = [];
  for (const [key, raw] of Object.entries(changes)) {
    const def = defs.get(key);
    if (!def) {
      errors.push({ field: `${field}.${key}`, message: 'is not a custom field of this organisation (define it with PUT /api/customers/fields/{key})' });
      continue;
    }
    if (raw === null) {
      delete values[key];
      continue;
    }
    const result = coerceCustomValue(def.type, def.options, raw);
    if ('error' in result) errors.push({ field: `${field}.${key}`, message: result.error });
    else values[key] = result.value;
  }
  return { values, errors };
}

/** Only the values of defined fields (a deleted field's values vanish before the purge reaches them). */
export const visibleCustomValues = (defs: FieldDefinitions, values: CustomValues): CustomValues => {
  const shown: CustomValues = {};
  for (const [k, v] of Object.entries(values)) if (defs.has(k)) shown[k] = v;
  return shown;
};

/** A `key:value` list filter turned into stored values (400 on `custom` for an unknown key or a bad value). */
export function parseCustomFilters(defs: FieldDefinitions, filters: string[]): CustomValues {
  const wanted: CustomValues = {};
  for (const filter of filters) {
    const at = filter.indexOf(':');
    const key = at > 0 ? filter.slice(0, at) : filter;
    const text = at > 0 ? filter.slice(at + 1) : '';
    const def = defs.get(key);
    if (!def) throw badRequest('validation_failed', 'Unknown custom field', [{ field: 'custom', message: `${key} is not a custom field of this organisation` }]);
    const raw = def.type === 'number' ? (text.trim() === '' ? NaN : Number(text)) : def.type === 'boolean' ? (text === 'true' ? true : text === 'false' ? false : text) : text;
    const result = coerceCustomValue(def.type, def.options, raw);
    if ('error' in result) throw badRequest('validation_failed', 'Invalid custom field filter', [{ field: 'custom', message: `${key} ${result.error}` }]);
    wanted[key] = result.value;
  }
  return wanted;
}
