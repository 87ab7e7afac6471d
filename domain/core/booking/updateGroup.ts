import type { ServiceGroup } from '../../../entities/core/booking';
import type { TenantContext } from '../../context';
import { defined, type GroupInput } from './catalogueInput';
import { findGroup } from './store/catalogue';

export async function updateGroup(ctx: TenantContext, id: string, input: GroupInput): Promise<ServiceGroup> {
  const group = await findGroup(ctx.em, id);
  Object.assign(group, defined(input), { name: input.name?.trim() ?? group.name, updatedAt: new Date() });
  await ctx.em.flush();
  return group;
}
