import { contactActivityTypes } from '../../../entities/core/activity';
import type { Em } from '../../../lib/db';

/** customer.lastContactAt = the latest completed call, e-mail or meeting that has happened. */
export async function refreshLastContact(em: Em, tenantId: string, customerId: string): Promise<void> {
  await em.execute(
    `update crm_customers set last_contact_at = (select max(occurred_at) from crm_activities where tenant_id = ? and customer_id = ? and type in (?) and completed_at is not null and occurred_at <= now()) where tenant_id = ? and id = ?`,
    [tenantId, customerId, contactActivityTypes, tenantId, customerId],
  );
}
