import { CustomField } from '../../../entities/core/customField';
import { tenantContext } from '../../context';
import { purgeValues } from './customFields';
import type { Services } from '../../services';

/** Removes a deleted field's values from the customers, unless the field was defined again meanwhile. */
export async function purgeCustomField(services: Services, tenantId: string, key: string): Promise<number> {
  const ctx = tenantContext(services, tenantId);
  return ctx.em.transactional(async (em) => {
    // The same lock as defineCustomField: a definition made during the purge waits for it.
    await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`crm_custom_fields:${tenantId}`]);
    if (await em.count(CustomField, { key })) return 0;
    return purgeValues(em, tenantId, key);
  });
}
