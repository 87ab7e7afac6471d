import type { LeanScope } from '../../../lib/lean';
import type { FieldDefinitions } from './customValues';
import { customFieldRows } from './store/customFields';

/** The organisation's custom field definitions by key. */
export async function fieldDefinitions(scope: LeanScope): Promise<FieldDefinitions> {
  const fields = await customFieldRows.all(scope);
  return new Map(fields.map((f) => [f.key, { type: f.type, options: f.options }]));
}
