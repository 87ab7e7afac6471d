import { tenantContext } from '../../context';
import { countCustomFields, lockCustomFields, removeCustomValues } from './store/customFields';
import type { Services } from '../../services';

/** Removes a deleted field's values from the customers, unless the field was defined again meanwhile. */
export async function purgeCustomField(services: Services, tenantId: string, key: string): Promise<number> {
  const ctx = tenantContext(services, tenantId);
  return ctx.em.transactional(async (em) => {
    // The same lock as defineCustomField: a definition made during the purge waits for it.
    await lockCustomFields(em, tenantId);
    if (await countCustomFields(em, key)) return 0;
    return removeCustomValues(em, tenantId, key);
  });
}
