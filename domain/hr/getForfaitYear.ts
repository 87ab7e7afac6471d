import { DAY_MS, todayIn } from '../../lib/calendar';
import { conflict } from '../../lib/errors';
import type { TenantContext } from '../context';
import { daysWorked, forfaitYear, type ForfaitYear } from './forfaitDays';
import { employeeInReadScope, readScope } from './lookup';
import { holidayDates } from './publicHolidays';
import { hrSettingsOf } from './settings';
import { loadPunches, workIntervals } from './timeline';
import { dailyTime } from './workedTime';

export interface ForfaitYearValues extends ForfaitYear {
  employeeId: string;
  /** Days worked in the year so far (effective punches; a day under 4 h counts half). */
  daysWorked: number;
  /** Forfait minus days worked (negative once passed). */
  remainingDays: number;
  /** Days worked month by month, January first. */
  months: { month: string; daysWorked: number }[];
}

/**
 * The year of an employee au forfait jours (default the current one in their zone): the forfait (theirs or the
 * organisation's, pro rata of a partial year), days worked from the effective punches, what remains, and the rest
 * days the forfait leaves. 409 `not_forfait_days` for an employee counted in hours. Members read their own.
 */
export async function getForfaitYear(
  ctx: TenantContext,
  employeeId: string,
  year?: number,
): Promise<ForfaitYearValues> {
  const employee = await employeeInReadScope(ctx, await readScope(ctx), employeeId);
  if (employee.workTimeMode !== 'forfait_days')
    throw conflict('not_forfait_days', 'This employee is counted in hours, not au forfait jours');
  const y = year ?? Number(todayIn(employee.timeZone).slice(0, 4));
  const settings = await hrSettingsOf(ctx);
  const punches = await loadPunches(
    ctx.em,
    [employee.id],
    new Date(Date.parse(`${y}-01-01T00:00:00Z`) - DAY_MS),
    new Date(Date.parse(`${y + 1}-01-01T00:00:00Z`) + DAY_MS),
  );
  const days = dailyTime(workIntervals(punches.get(employee.id) ?? []).intervals, employee.timeZone).filter((d) =>
    d.date.startsWith(`${y}-`),
  );
  const forfait = forfaitYear(
    y,
    employee.forfaitDays ?? settings.forfaitDays,
    employee,
    holidayDates(`${y}-01-01`, `${y}-12-31`),
  );
  const worked = daysWorked(days);
  const months = Array.from({ length: 12 }, (_, i) => {
    const month = `${y}-${String(i + 1).padStart(2, '0')}`;
    return { month, daysWorked: daysWorked(days.filter((d) => d.date.startsWith(month))) };
  });
  return {
    employeeId: employee.id,
    ...forfait,
    daysWorked: worked,
    remainingDays: forfait.forfaitDays - worked,
    months,
  };
}
