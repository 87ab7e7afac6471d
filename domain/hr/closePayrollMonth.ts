import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { PayrollCodeMapping } from '../../entities/hr/payroll';
import { addDays, DAY_MS, localInstant, monthBounds } from '../../lib/calendar';
import { conflict } from '../../lib/errors';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { closeWeek } from './closeWeeks';
import { listLeaveTypes } from './listLeaveTypes';
import { payrollCodesOf } from './payrollCodes';
import { payrollMonth, type PayrollWeek } from './payrollMonth';
import {
  closedMonth,
  countersOfWeeks,
  employeesOfMonth,
  grantedLeaveBetween,
  insertClosedMonth,
  movementsUpTo,
} from './store/payroll';
import { scheduleVersionsOfEmployees } from './store/schedules';
import { loadPunches, workIntervals } from './timeline';
import { dailyTime, NO_OVERTIME, weekOf } from './workedTime';
import { hrSettingsOf, overtimeRatesOf } from './settings';

export interface ClosedMonthValues {
  month: string;
  closedAt: Date;
  closedBy: string | null;
  employees: number;
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) (groups.get(key(item)) ?? groups.set(key(item), []).get(key(item))!).push(item);
  return groups;
}

/** When the last ISO week a month overlaps has ended everywhere (the Monday after it, 12:00 UTC: closeWeeks). */
export function monthClosableAt(month: string): Date {
  return new Date(`${addDays(weekOf(monthBounds(month).last), 7)}T12:00:00Z`);
}

/**
 * Closes a payroll month of the organisation: first the ISO weeks it overlaps (closeWeek, once each: a week closed
 * already keeps its counter), then one frozen summary per employee working in the month (payrollMonth), with the
 * code mapping as it is now, in one transaction. 409 `month_not_ended` before its last week has ended
 * everywhere, 409 `month_already_closed` once closed (two closes at once: the unique key lets one through).
 */
export async function closePayrollMonth(
  ctx: TenantContext,
  month: string,
  now = new Date(),
): Promise<ClosedMonthValues> {
  const { first, last } = monthBounds(month);
  const closable = monthClosableAt(month);
  if (now < closable)
    throw conflict('month_not_ended', `${month} can be closed once its last week has ended: ${closable.toISOString()}`);
  const already = () => conflict('month_already_closed', `${month} is already closed`);
  if (await closedMonth(ctx.em, month)) throw already();

  const firstMonday = weekOf(first);
  const lastMonday = weekOf(last);
  for (let monday = firstMonday; monday <= lastMonday; monday = addDays(monday, 7)) await closeWeek(ctx, monday);

  const employees = await employeesOfMonth(ctx.em, first, last);
  const ids = employees.map((e) => e.id);
  const nextFirst = Date.parse(`${addDays(last, 1)}T00:00:00Z`);
  const [settings, types, { codes }, punches, versions, counters, leave, movements] = await Promise.all([
    hrSettingsOf(ctx),
    listLeaveTypes(ctx),
    payrollCodesOf(ctx),
    // Every zone's local days lie within a day either side of the UTC ones.
    loadPunches(
      ctx.em,
      ids,
      new Date(Date.parse(`${firstMonday}T00:00:00Z`) - DAY_MS),
      new Date(Date.parse(`${lastMonday}T00:00:00Z`) + 9 * DAY_MS),
    ),
    scheduleVersionsOfEmployees(ctx.em, ids),
    countersOfWeeks(ctx.em, ids, firstMonday, lastMonday),
    grantedLeaveBetween(ctx.em, ids, first, last),
    movementsUpTo(ctx.em, ids, month, new Date(nextFirst - DAY_MS), new Date(nextFirst + DAY_MS)),
  ]);
  const counterOf = new Map(counters.map((c) => [`${c.employeeId}:${c.week}`, c]));
  const leaveOf = groupBy(leave, (l) => l.employeeId);
  const versionsOf = groupBy(versions, (v) => v.employeeId);
  const summaries = employees.map((e) => {
    const days = dailyTime(workIntervals(punches.get(e.id) ?? []).intervals, e.timeZone);
    const weeks: PayrollWeek[] = [];
    for (let monday = firstMonday; monday <= lastMonday; monday = addDays(monday, 7)) {
      const counter = counterOf.get(`${e.id}:${monday}`) ?? null;
      weeks.push({ monday, counter, days: days.filter((d) => weekOf(d.date) === monday) });
    }
    const summary = payrollMonth({
      month,
      employment: e,
      weeks,
      leave: leaveOf.get(e.id) ?? [],
      types,
      versions: versionsOf.get(e.id) ?? [],
      movements: movements.get(e.id) ?? [],
      monthEnd: localInstant(addDays(last, 1), '00:00', e.timeZone),
      rates: e.workTimeMode === 'forfait_days' ? NO_OVERTIME : overtimeRatesOf(settings),
    });
    return { employeeId: e.id, firstName: e.firstName, lastName: e.lastName, ...summary };
  });
  // The leave types' codes as they are now, so the closed month's export names them the same way forever.
  const frozen: PayrollCodeMapping = {
    time: codes.time,
    leaveTypes: codes.leaveTypes.map((t) => ({
      ...t,
      leaveTypeCode: types.find((x) => x.id === t.leaveTypeId)?.code ?? t.leaveTypeId,
    })),
  };

  try {
    const closedAt = await ctx.em.transactional(async (em) => {
      const at = await insertClosedMonth(em, ctx.tenantId, month, ctx.userId, frozen, summaries);
      audit(em, {
        action: 'hr.payroll.month_closed',
        actorId: ctx.userId,
        tenantId: ctx.tenantId,
        targetType: 'hr_payroll_month',
        targetId: ctx.tenantId,
        data: { month, employees: summaries.length },
      });
      return at;
    });
    return { month, closedAt, closedBy: ctx.userId, employees: summaries.length };
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw already();
    throw err;
  }
}
