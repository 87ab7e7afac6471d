import { createHash } from 'node:crypto';
import { notFound } from '../../lib/errors';
import { cloudQuotaQueue, type UsageJob } from '../../queues/cloud';
import type { Services } from '../services';
import { organizationExists } from './store/usage';

/** The job id of a reported event: one per (organisation, event id), so the queue takes a repeat as the same job. */
export const usageJobId = (event: Pick<UsageJob, 'tenantId' | 'eventId'>) =>
  createHash('sha256').update(`${event.tenantId}\n${event.eventId}`).digest('hex');

/**
 * Usage another module reports (bytes it stored or freed, e.g. images of documents and slides): checked, then
 * applied by the quota queue. One event id is applied once (the job id and a unique key both say so).
 */
export async function recordUsage(services: Services, event: UsageJob): Promise<void> {
  if (!(await organizationExists(services.orm.em.fork(), event.tenantId))) throw notFound('Organisation');
  await services.queues.add(cloudQuotaQueue, event, { jobId: usageJobId(event) });
}
