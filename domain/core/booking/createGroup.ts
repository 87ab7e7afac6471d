import { ServiceGroup } from '../../../entities/core/booking';
import type { TenantContext } from '../../context';
import type { GroupInput } from './catalogueInput';

export async function createGroup(ctx: TenantContext, input: GroupInput & { name: string }): Promise<ServiceGroup> {
  const group = ctx.em.create(ServiceGroup, {
    tenantId: ctx.tenantId,
    name: input.name.trim(),
    description: input.description ?? null,
    sortOrder: input.sortOrder ?? 0,
  });
  await ctx.em.flush();
  return group;
}
