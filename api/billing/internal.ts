import type { ModuleMount } from '../http/mount';
import { mapPage } from '../../lib/pagination';
import { listRunningTrials } from '../../domain/billing/listRunningTrials';
import { PageQuery } from '../http/dtos';
import { TrialingList, TrialingView } from './views';
import { getInternalSubscriptionsTrialing } from './internal.docs';

/** Machine-to-machine billing routes (X-Internal-Secret). */
export function internalBillingRoutes({ routes }: ModuleMount): void {
  routes('Internal').get(
    '/internal/subscriptions/trialing',
    {
      summary: 'Trials running now',
      description: getInternalSubscriptionsTrialing,
      access: 'internal',
      query: PageQuery,
      response: TrialingList,
    },
    async ({ services, query }) => {
      const page = await listRunningTrials(services, { limit: query.limit, cursor: query.cursor });
      return mapPage(page, TrialingView.from);
    },
  );
}
