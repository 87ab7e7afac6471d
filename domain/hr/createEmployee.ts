import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { HrEmployee } from '../../entities/hr/employee';
import { conflict, invalidField } from '../../lib/errors';
import { checkZone } from '../../lib/timeZones';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { emitEvent } from '../webhooks/emitEvent';
import { employeeData } from '../webhooks/payloads';
import { DEFAULT_TIME_ZONE } from '../../lib/calendar';
import { isMember } from './store/employees';

export interface CreateEmployeeProps {
  firstName: string;
  lastName: string;
  email?: string;
  /** The member's identity account, when they have one (a member of the organisation). */
  userId?: string;
  jobTitle?: string;
  department?: string;
  timeZone?: string;
  weeklyHours?: number;
  hireDate?: string;
}

/** Creates an employee; a linked account must be a member of the organisation and linked to no other employee (409). Emits `employee.created` in its transaction. */
export async function createEmployee(ctx: TenantContext, props: CreateEmployeeProps): Promise<HrEmployee> {
  const timeZone = await checkZone(ctx.em, 'timeZone', props.timeZone ?? DEFAULT_TIME_ZONE);
  if (props.userId && !(await isMember(ctx.em, props.userId)))
    throw invalidField('userId', 'must be a member of the organisation');
  try {
    return await ctx.em.transactional(async (em) => {
      const employee = em.create(HrEmployee, {
        tenantId: ctx.tenantId,
        userId: props.userId ?? null,
        firstName: props.firstName.trim(),
        lastName: props.lastName.trim(),
        email: props.email?.toLowerCase() ?? null,
        jobTitle: props.jobTitle ?? null,
        department: props.department ?? null,
        timeZone,
        weeklyHours: props.weeklyHours ?? 35,
        hireDate: props.hireDate ?? null,
      });
      audit(em, {
        action: 'hr.employee.created',
        actorId: ctx.userId,
        tenantId: ctx.tenantId,
        targetType: 'hr_employee',
        targetId: employee.id,
      });
      emitEvent(em, ctx.tenantId, 'employee.created', employeeData(employee));
      return employee;
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException)
      throw conflict('user_already_employee', 'This account is already linked to an employee of the organisation');
    throw err;
  }
}
