import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { HrSchedule, type ScheduleSlot } from '../../entities/hr/schedule';
import { checkZone } from '../../lib/timeZones';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { findEmployee } from './lookup';
import { checkSlots } from './schedules';
import { scheduleVersionFrom } from './store/schedules';

export interface SetScheduleProps {
  /** Local date from which the schedule applies. */
  effectiveFrom: string;
  /** Defaults to the employee's zone. */
  timeZone?: string;
  slots: ScheduleSlot[];
}

/**
 * Sets the weekly schedule of an employee from a date. A version with the same effectiveFrom is replaced
 * (a planned schedule corrected before it applies); otherwise a new version is added and the earlier ones
 * keep their dates, so the past stays as it was.
 */
export async function setSchedule(
  ctx: TenantContext,
  employeeId: string,
  props: SetScheduleProps,
): Promise<HrSchedule> {
  const employee = await findEmployee(ctx.em, employeeId);
  const timeZone = props.timeZone ? await checkZone(ctx.em, 'timeZone', props.timeZone) : employee.timeZone;
  const slots = checkSlots(props.slots);
  const write = () =>
    ctx.em.transactional(async (em) => {
      const existing = await scheduleVersionFrom(em, employeeId, props.effectiveFrom);
      const schedule =
        existing ??
        em.create(HrSchedule, {
          tenantId: ctx.tenantId,
          employeeId,
          effectiveFrom: props.effectiveFrom,
          timeZone,
          slots,
          createdBy: ctx.userId,
        });
      if (existing) Object.assign(existing, { timeZone, slots, createdBy: ctx.userId });
      audit(em, {
        action: 'hr.schedule.set',
        actorId: ctx.userId,
        tenantId: ctx.tenantId,
        targetType: 'hr_employee',
        targetId: employeeId,
        data: { effectiveFrom: props.effectiveFrom, replaced: !!existing },
      });
      return schedule;
    });
  try {
    return await write();
  } catch (err) {
    // The same date set concurrently: the other call made the version, this one replaces it.
    if (!(err instanceof UniqueConstraintViolationException)) throw err;
    ctx.em.clear();
    return write();
  }
}
