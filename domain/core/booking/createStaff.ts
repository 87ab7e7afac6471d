import { ROUND_ROBIN_BOUNDS, Staff } from '../../../entities/core/booking';
import type { TenantContext } from '../../context';
import { checkServices, type StaffInput } from './catalogueInput';

export async function createStaff(ctx: TenantContext, input: StaffInput & { displayName: string }): Promise<Staff> {
  await checkServices(ctx.em, input.serviceIds);
  const staff = ctx.em.create(Staff, {
    tenantId: ctx.tenantId,
    displayName: input.displayName.trim(),
    bio: input.bio ?? null,
    email: input.email?.toLowerCase() ?? null,
    phone: input.phone ?? null,
    weeklyHours: input.weeklyHours ?? {},
    serviceIds: [...new Set(input.serviceIds ?? [])],
    dateOverrides: input.dateOverrides ?? {},
    maxPerDay: input.maxPerDay ?? null,
    maxPerWeek: input.maxPerWeek ?? null,
    priority: input.priority ?? ROUND_ROBIN_BOUNDS.priority,
    weight: input.weight ?? ROUND_ROBIN_BOUNDS.weight,
    active: input.active ?? true,
  });
  await ctx.em.flush();
  return staff;
}
