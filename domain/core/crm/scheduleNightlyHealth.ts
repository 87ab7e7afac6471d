import { crmHealthQueue } from '../../../queues/crm';
import type { Services } from '../../services';
import { customersAfter } from './store/customers';

const BATCH = 500;

/**
 * How long a nightly batch job is kept once completed: while it is kept, a replay of the night's pass finds it
 * and enqueues nothing (crm-health's other jobs are removed as they complete).
 */
const KEEP_SECONDS = 24 * 3600;

/**
 * The nightly pass: every customer of every organisation gets a crm-health job (batches of 500 ids, read by
 * keyset across tenants), so scores follow time (recency, overdue tasks) even without events. Each batch's job id
 * names the night's slot, the organisation and the batch's first customer, so the pass run again for the same
 * slot (a retry after a failure part way, a replay after a stall) enqueues no batch twice.
 */
export async function scheduleNightlyHealth(services: Services, slot: string): Promise<number> {
  const em = services.orm.em.fork();
  // BullMQ refuses ids containing ':'.
  const night = slot.replace(/:/g, '-');
  let after = { tenantId: '00000000-0000-0000-0000-000000000000', id: '00000000-0000-0000-0000-000000000000' };
  let jobs = 0;
  for (;;) {
    const rows = await customersAfter(em, after, BATCH * 20);
    const byTenant = new Map<string, string[]>();
    for (const r of rows) byTenant.set(r.tenant_id, [...(byTenant.get(r.tenant_id) ?? []), r.id]);
    const batch = [...byTenant].flatMap(([tenantId, ids]) =>
      Array.from({ length: Math.ceil(ids.length / BATCH) }, (_, i) => {
        const customerIds = ids.slice(i * BATCH, (i + 1) * BATCH);
        return {
          payload: { tenantId, customerIds },
          options: { jobId: `${night}.${tenantId}.${customerIds[0]}`, removeOnComplete: { age: KEEP_SECONDS } },
        };
      }),
    );
    if (batch.length) await services.queues.addBulk(crmHealthQueue, batch);
    jobs += batch.length;
    if (rows.length < BATCH * 20) return jobs;
    const last = rows[rows.length - 1];
    after = { tenantId: last.tenant_id, id: last.id };
  }
}
