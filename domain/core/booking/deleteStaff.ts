import { conflict } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { countAppointmentsOf } from './store/appointments';
import { findStaff } from './store/catalogue';

/** Staff with appointments can't go: 409 `staff_in_use`; deactivate them instead. */
export async function deleteStaff(ctx: TenantContext, id: string): Promise<void> {
  const staff = await findStaff(ctx.em, id);
  if ((await countAppointmentsOf(ctx.em, ctx.tenantId, { staffId: staff.id })) > 0)
    throw conflict('staff_in_use', 'The staff member has appointments; set active to false instead');
  await ctx.em.removeAndFlush(staff);
}
