import type { WaitlistStatus } from '../../../entities/core/waitlist';
import type { TenantContext } from '../../context';
import { findService } from './store/catalogue';
import { waitlistOf, type WaitlistRow } from './store/waitlist';

export interface ListWaitlistProps {
  day?: string;
  status?: WaitlistStatus;
  limit: number;
}

/** A service's waitlist, by day then queue order (first joined first); 404 for another organisation's service. */
export async function listWaitlist(
  ctx: TenantContext,
  serviceId: string,
  props: ListWaitlistProps,
): Promise<WaitlistRow[]> {
  const service = await findService(ctx.em, serviceId);
  return waitlistOf(ctx.em, ctx.tenantId, service.id, props);
}
