import type { Staff } from '../../../entities/core/booking';
import type { TenantContext } from '../../context';
import { checkServices, defined, type StaffInput } from './catalogueInput';
import { findStaff } from './store/catalogue';

export async function updateStaff(ctx: TenantContext, id: string, input: StaffInput): Promise<Staff> {
  const staff = await findStaff(ctx.em, id);
  await checkServices(ctx.em, input.serviceIds);
  Object.assign(staff, defined(input), {
    displayName: input.displayName?.trim() ?? staff.displayName,
    email: input.email === undefined ? staff.email : (input.email?.toLowerCase() ?? null),
    serviceIds: input.serviceIds ? [...new Set(input.serviceIds)] : staff.serviceIds,
    updatedAt: new Date(),
  });
  await ctx.em.flush();
  return staff;
}
