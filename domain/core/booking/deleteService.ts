import { conflict } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { countAppointmentsOf } from './store/appointments';
import { findService } from './store/catalogue';

/** A service with appointments can't go (their history needs it): 409 `service_in_use`; deactivate it instead. */
export async function deleteService(ctx: TenantContext, id: string): Promise<void> {
  const service = await findService(ctx.em, id);
  if ((await countAppointmentsOf(ctx.em, ctx.tenantId, { serviceId: service.id })) > 0)
    throw conflict('service_in_use', 'The service has appointments; set active to false instead');
  await ctx.em.removeAndFlush(service);
}
