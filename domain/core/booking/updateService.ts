import type { BookingService } from '../../../entities/core/booking';
import type { TenantContext } from '../../context';
import { checkGroup, defined, type ServiceInput } from './catalogueInput';
import { findService } from './store/catalogue';

/** Existing appointments keep their times. */
export async function updateService(ctx: TenantContext, id: string, input: ServiceInput): Promise<BookingService> {
  const service = await findService(ctx.em, id);
  await checkGroup(ctx.em, input.groupId);
  Object.assign(service, defined(input), { name: input.name?.trim() ?? service.name, updatedAt: new Date() });
  await ctx.em.flush();
  return service;
}
