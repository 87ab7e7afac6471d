import { DateTime } from 'luxon';
import { DEFAULT_TIME_ZONE } from '../../lib/calendar';
import { invalidField } from '../../lib/errors';
import type { TenantContext } from '../context';
import { monthClosableAt } from './closePayrollMonth';
import { closedMonthsBetween } from './store/payroll';

/** Longest range of months one list answers (ten years). */
export const MAX_PAYROLL_MONTHS = 120;

export interface PayrollMonthState {
  month: string;
  /** `open`: its last week has not ended; `closable`: it has, not closed yet; `closed`: frozen, exportable. */
  state: 'open' | 'closable' | 'closed';
  closableAt: Date;
  closedAt: Date | null;
  closedBy: string | null;
  employees: number | null;
}

/** The months from `from` to `to` (YYYY-MM, oldest first); 400 when reversed or longer than MAX_PAYROLL_MONTHS. */
export function monthsBetween(from: string, to: string): string[] {
  const start = DateTime.fromFormat(from, 'yyyy-MM', { zone: 'utc' });
  const end = DateTime.fromFormat(to, 'yyyy-MM', { zone: 'utc' });
  const count = Math.round(end.diff(start, 'months').months) + 1;
  if (count < 1) throw invalidField('to', 'must not be before from');
  if (count > MAX_PAYROLL_MONTHS) throw invalidField('to', `must be at most ${MAX_PAYROLL_MONTHS} months after from`);
  return Array.from({ length: count }, (_, i) => start.plus({ months: i }).toFormat('yyyy-MM'));
}

/** The twelve months up to the current one in the default zone: the range a list without one shows. */
export function defaultPayrollRange(now = new Date()): { from: string; to: string } {
  const current = DateTime.fromJSDate(now, { zone: DEFAULT_TIME_ZONE }).startOf('month');
  return { from: current.minus({ months: 11 }).toFormat('yyyy-MM'), to: current.toFormat('yyyy-MM') };
}

/** Every month of the range with its payroll state, so a payroll manager sees what is left to close. */
export async function listPayrollMonths(
  ctx: TenantContext,
  range: { from?: string; to?: string },
  now = new Date(),
): Promise<PayrollMonthState[]> {
  const fallback = defaultPayrollRange(now);
  const to = range.to ?? (range.from && range.from > fallback.to ? range.from : fallback.to);
  const from =
    range.from ?? DateTime.fromFormat(to, 'yyyy-MM', { zone: 'utc' }).minus({ months: 11 }).toFormat('yyyy-MM');
  const months = monthsBetween(from, to);
  const closed = new Map((await closedMonthsBetween(ctx.em, ctx.tenantId, from, to)).map((m) => [m.month, m]));
  return months.map((month) => {
    const closableAt = monthClosableAt(month);
    const c = closed.get(month);
    if (c) return { ...c, state: 'closed', closableAt };
    const state = now < closableAt ? 'open' : 'closable';
    return { month, state, closableAt, closedAt: null, closedBy: null, employees: null };
  });
}
