import { contactActivityTypes } from '../../../entities/core/activity';
import type { Em } from '../../../lib/db';

/**
 * customer.lastContactAt = the latest completed call, e-mail or meeting that has happened: at its occurredAt,
 * or at its completion when that came first (a planned one done early, stored before placeDone). A synced
 * activity placed in the future does not count.
 */
export async function refreshLastContact(em: Em, tenantId: string, customerId: string): Promise<void> {
  await em.execute(
    `update crm_customers set last_contact_at = (select max(least(occurred_at, completed_at)) from crm_activities where tenant_id = ? and customer_id = ? and type in (?) and completed_at is not null and least(occurred_at, completed_at) <= now()) where tenant_id = ? and id = ?`,
    [tenantId, customerId, contactActivityTypes, tenantId, customerId],
  );
}
