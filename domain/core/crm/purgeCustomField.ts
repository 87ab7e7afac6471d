import { CustomField } from '../../../entities/core/customField';
import { tenantContext } from '../../context';
import type { Services } from '../../services';

/** Removes a deleted field's values from the customers, unless the field was defined again meanwhile. */
export async function purgeCustomField(services: Services, tenantId: string, key: string): Promise<number> {
  const ctx = tenantContext(services, tenantId);
  return ctx.em.transactional(async (em) => {
    // The same lock as defineCustomField: a definition made during the purge waits for it.
    await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`crm_custom_fields:${tenantId}`]);
    if (await em.count(CustomField, { key })) return 0;
    const result = await em.execute('update crm_customers set custom = custom - ? where tenant_id = ? and jsonb_exists(custom, ?)', [key, tenantId, key], 'run');
    return (result as { affectedRows?: number }).affectedRows ?? 0;
  });
}
