import { createHash } from 'node:crypto';
import { fileCategories } from '../../entities/cloud/node';
import { Organization } from '../../entities/identity/organization';
import { notFound } from '../../lib/errors';
import { cloudQuotaQueue, type UsageJob } from '../../queues/cloud';
import type { Services } from '../services';
import { addUsage } from './quota';

export const usageCategories = fileCategories;

/**
 * Usage another module reports (bytes it stored or freed, e.g. images of documents and slides): checked, then
 * applied by the quota queue. One event id is applied once (the job id and a unique key both say so).
 */
export async function recordUsage(services: Services, event: UsageJob): Promise<void> {
  const org = await services.orm.em.fork().findOne(Organization, { id: event.tenantId }, { fields: ['id'] });
  if (!org) throw notFound('Organisation');
  const jobId = createHash('sha256').update(`${event.tenantId}\n${event.eventId}`).digest('hex');
  await services.queues.add(cloudQuotaQueue, event, { jobId });
}

/** The quota worker: records the event once and adds its bytes to the organisation's usage, in one transaction. */
export async function applyUsage(services: Services, event: UsageJob): Promise<boolean> {
  return services.orm.em.fork().transactional(async (em) => {
    const inserted = await em.execute(
      `insert into cloud_usage_events (tenant_id, event_id, delta_bytes, category, source, created_at) values (?, ?, ?, ?, ?, now()) on conflict do nothing returning event_id`,
      [event.tenantId, event.eventId, event.deltaBytes, event.category, event.source],
    );
    if (!inserted.length) return false;
    await addUsage(em, event.tenantId, event.deltaBytes, event.category);
    return true;
  });
}
