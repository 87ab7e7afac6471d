import type { HubDelivery, HubDeliveryStatus } from '../../entities/notifications/hubDelivery';
import type { Lean } from '../../lib/lean';
import { toPage, type Page, type PageProps } from '../../lib/pagination';
import type { Services } from '../services';
import { hubDeliveriesNewestFirst } from './store';

export interface HubDeliveriesQuery extends PageProps {
  tenantId?: string;
  module?: string;
  status?: HubDeliveryStatus;
}

/** The hub notifications workers tried to deliver, newest first (platform administrators). */
export async function listHubDeliveries(services: Services, q: HubDeliveriesQuery): Promise<Page<Lean<HubDelivery>>> {
  const rows = await hubDeliveriesNewestFirst(services, {
    tenantId: q.tenantId ?? null,
    module: q.module ?? null,
    status: q.status ?? null,
    before: q.cursor ?? null,
    limit: q.limit + 1,
  });
  return toPage(rows, q.limit);
}
