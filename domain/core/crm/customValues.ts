import type { CustomField, CustomFieldType } from '../../../entities/core/customField';
import type { CustomValues } from '../../../entities/core/customer';
import { badRequest, type FieldError } from '../../../lib/errors';
import { isCalendarDate } from '../../../lib/calendar';

/** The rules of custom field keys and values (pure: the definitions are read by fieldDefinitions.ts). */
export const CUSTOM_KEY = /^[a-z][a-z0-9_]{0,63}$/;
export const MAX_TEXT = 2000;

/** The value as stored for the field's type, or the reason it does not fit. */
export function coerceCustomValue(
  type: CustomFieldType,
  options: string[],
  value: unknown,
): { value: string | number | boolean } | { error: string } {
  switch (type) {
    case 'text':
      return typeof value === 'string' && value.length <= MAX_TEXT
        ? { value }
        : { error: `must be a text of at most ${MAX_TEXT} characters` };
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? { value } : { error: 'must be a number' };
    case 'boolean':
      return typeof value === 'boolean' ? { value } : { error: 'must be true or false' };
    case 'date':
      return isCalendarDate(value) ? { value } : { error: 'must be a date YYYY-MM-DD' };
    case 'select':
      return typeof value === 'string' && options.includes(value)
        ? { value }
        : { error: `must be one of: ${options.join(', ')}` };
  }
}

export type FieldDefinitions = Map<string, Pick<CustomField, 'type' | 'options'>>;

/**
 * Applies a change of custom values to the current ones: a key set to null is removed; every other value must
 * fit its field's definition. Field errors are named `custom.<key>` (prefixed by `field`).
 */
export function applyCustomValues(
  defs: FieldDefinitions,
  current: CustomValues,
  changes: Record<string, unknown>,
  field = 'custom',
): { values: CustomValues; errors: FieldError[] } {
  const values: CustomValues = {};
  for (const [k, v] of Object.entries(current)) if (defs.has(k)) values[k] = v;
  const errors: FieldError[] = [];
  for (const [key, raw] of Object.entries(changes)) {
    const def = defs.get(key);
    if (!def) {
      errors.push({
        field: `${field}.${key}`,
        message: 'is not a custom field of this organisation (define it with PUT /api/customers/fields/{key})',
      });
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
    if (!def)
      throw badRequest('validation_failed', 'Unknown custom field', [
        { field: 'custom', message: `${key} is not a custom field of this organisation` },
      ]);
    const raw =
      def.type === 'number'
        ? text.trim() === ''
          ? NaN
          : Number(text)
        : def.type === 'boolean'
          ? text === 'true'
            ? true
            : text === 'false'
              ? false
              : text
          : text;
    const result = coerceCustomValue(def.type, def.options, raw);
    if ('error' in result)
      throw badRequest('validation_failed', 'Invalid custom field filter', [
        { field: 'custom', message: `${key} ${result.error}` },
      ]);
    wanted[key] = result.value;
  }
  return wanted;
}
