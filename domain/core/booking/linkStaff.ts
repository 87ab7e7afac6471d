import type { Staff } from '../../../entities/core/booking';
import type { TenantContext } from '../../context';
import { findEmployee } from '../../hr/lookup';
import { findMember } from '../../identity/members';
import { findStaff } from './store/catalogue';

/**
 * Links a staff member to a member of the organisation (their calendar events then block slots) and/or to an
 * HR employee (their schedules and leave then give the hours). null unlinks; 404 for an unknown member or employee.
 */
export async function linkStaff(
  ctx: TenantContext,
  id: string,
  link: { userId?: string | null; employeeId?: string | null },
): Promise<Staff> {
  const staff = await findStaff(ctx.em, id);
  if (link.userId) await findMember(ctx.em, link.userId);
  if (link.employeeId) await findEmployee(ctx.em, link.employeeId);
  if (link.userId !== undefined) staff.userId = link.userId;
  if (link.employeeId !== undefined) staff.employeeId = link.employeeId;
  staff.updatedAt = new Date();
  await ctx.em.flush();
  return staff;
}
