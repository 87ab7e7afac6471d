import { CustomField } from '../../../../entities/core/customField';
import type { Em } from '../../../../lib/db';
import { lean } from '../../../../lib/lean';

/**
 * The organisation's lock on its custom field definitions: defineCustomField and the purge of a deleted field
 * take it, so a definition made during a purge waits for it (held until the transaction ends).
 */
export async function lockCustomFields(em: Em, tenantId: string): Promise<void> {
  await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`crm_custom_fields:${tenantId}`]);
}

/** The definitions, by key. */
export const customFieldsByKey = (em: Em): Promise<CustomField[]> =>
  em.find(CustomField, {}, { orderBy: { key: 'asc' } });

/** How many fields the organisation defines (all of them, or those named `key`: 0 or 1). */
export const countCustomFields = (em: Em, key?: string): Promise<number> =>
  em.count(CustomField, key === undefined ? {} : { key });

/** Whether some customer of the organisation still stores a value for `key`. */
export async function customValuesStored(em: Em, tenantId: string, key: string): Promise<boolean> {
  const rows = await em.execute<{ one: number }[]>(
    'select 1 as one from crm_customers where tenant_id = ? and jsonb_exists(custom, ?) limit 1',
    [tenantId, key],
  );
  return rows.length > 0;
}

/** Removes the stored values of `key` from the organisation's customers; the number of customers changed. */
export async function removeCustomValues(em: Em, tenantId: string, key: string): Promise<number> {
  const result = await em.execute(
    'update crm_customers set custom = custom - ? where tenant_id = ? and jsonb_exists(custom, ?)',
    [key, tenantId, key],
    'run',
  );
  return (result as { affectedRows?: number }).affectedRows ?? 0;
}

// A lean statement (docs/database-path.md): every customer read and write presents or checks custom values.
export const customFieldRows = lean(CustomField, {});
