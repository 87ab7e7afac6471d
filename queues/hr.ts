import { defineQueue } from './define';

/**
 * Monthly leave work: `accrual` credits the leave types' accrualDaysPerMonth, `rtt` generates RTT days, both for
 * one month. Without tenantId (the clock) the job fans out one job per organisation with employees.
 * Idempotent: each movement is unique per employee, type, kind and month (a unique index of hr_leave_ledger).
 */
export interface HrLeaveJob {
  /** `week` closes the weekly time counters of an ISO week (domain/hr/closeWeeks.ts). */
  task: 'accrual' | 'rtt' | 'week';
  /** YYYY-MM; for `week`, the Monday YYYY-MM-DD. */
  period: string;
  tenantId?: string;
}

/**
 * The clock offers the fan-out of each of the last HR_LEAVE_CATCH_UP_MONTHS ended months every hour, under a job id
 * naming the month (`accrual-2026-03`, `rtt-2026-03`): a month is enqueued by the first hour the clock runs after
 * it ended, until the end of the third month after it. So a clock down for less than three calendar months misses
 * no month; an older month is left to an operator (see README, HR). The bound keeps a fresh Redis (or the first
 * run) from re-checking more than three months, and the jobs kept in Redis small.
 */
export const HR_LEAVE_CATCH_UP_MONTHS = 3;

/**
 * hr-leave jobs are kept past that window once completed, so the hourly offers of a month already fanned out
 * find its job and enqueue nothing. (BullMQ prunes a queue's completed jobs by the age the finishing job carries,
 * so every job of the queue keeps this one.) A job that exhausted its attempts is pruned after two weeks, and
 * the clock then offers its month again while it is in the window.
 */
/** The clock offers the closing of each of the last HR_WEEKS_CATCH_UP ended ISO weeks every hour (job id `week-<Monday>`). */
export const HR_WEEKS_CATCH_UP = 4;

/** The Mondays of the last `count` ISO weeks ended everywhere (the latest zone, UTC-12, ends Sunday at Monday 12:00 UTC), newest first. */
export function endedWeeks(count: number, at = new Date()): string[] {
  const day = Math.floor((at.getTime() - 12 * 3_600_000) / 86_400_000);
  const monday = day - ((day + 3) % 7);
  return Array.from({ length: count }, (_, i) =>
    new Date((monday - 7 * (i + 1)) * 86_400_000).toISOString().slice(0, 10),
  );
}

const HR_LEAVE_KEEP_SECONDS = (HR_LEAVE_CATCH_UP_MONTHS + 1) * 31 * 24 * 3600;

export const hrLeaveQueue = defineQueue<HrLeaveJob>('hr-leave', {
  concurrency: 2,
  defaults: { removeOnComplete: { age: HR_LEAVE_KEEP_SECONDS } },
});

/**
 * A compliance scan of local days `from`..`to` (YYYY-MM-DD). Without tenantId (the clock) it fans out per
 * organisation; without employeeIds, per batch of employees. Alerts are unique per employee, rule and period,
 * so a scan run again raises nothing twice.
 */
export interface ComplianceJob {
  from: string;
  to: string;
  tenantId?: string;
  employeeIds?: string[];
}

export const complianceQueue = defineQueue<ComplianceJob>('compliance', { concurrency: 2 });

/** Hourly (the clock): employees whose last day has passed in their time zone become `left` (domain/hr/recordDepartures.ts). */
export const hrDeparturesQueue = defineQueue<{ slot: string }>('hr-departures', {
  concurrency: 1,
  defaults: { attempts: 3, removeOnComplete: { count: 30 }, removeOnFail: { age: 7 * 24 * 3600 } },
});
