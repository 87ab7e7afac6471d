import { defineQueue } from './define';

/**
 * Monthly leave work: `accrual` credits the leave types' accrualDaysPerMonth, `rtt` generates RTT days, both for
 * one month. Without tenantId (the clock) the job fans out one job per organisation with employees.
 * Idempotent: each movement is unique per employee, type, kind and month.
 */
export interface HrLeaveJob {
  task: 'accrual' | 'rtt';
  /** YYYY-MM */
  period: string;
  tenantId?: string;
}

export const hrLeaveQueue = defineQueue<HrLeaveJob>('hr-leave', { concurrency: 2 });

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
