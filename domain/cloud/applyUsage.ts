import type { UsageJob } from '../../queues/cloud';
import type { Services } from '../services';
import { addUsage, recordUsageEvent } from './store/usage';

/** The quota worker: records the event once and adds its bytes to the organisation's usage, in one transaction. */
export async function applyUsage(services: Services, event: UsageJob): Promise<boolean> {
  return services.orm.em.fork().transactional(async (em) => {
    if (!(await recordUsageEvent(em, event))) return false;
    await addUsage(em, event.tenantId, event.deltaBytes, event.category);
    return true;
  });
}
