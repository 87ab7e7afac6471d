import type { Services } from '../domain/services';
import { endedMonths } from '../lib/calendar';
import { trialExpiryQueue } from '../queues/billing';
import { bookingRemindersQueue, bookingWaitlistSweepQueue, calendarSyncSweepQueue } from '../queues/booking';
import { cloudSweepQueue, cloudVersionsQueue } from '../queues/cloud';
import { einvoiceQueue } from '../queues/einvoice';
import { invoiceRemindersQueue, recurringInvoicesQueue } from '../queues/invoices';
import { stagedJobsRelayQueue } from '../queues/jobs';
import {
  complianceQueue,
  endedWeeks,
  HR_LEAVE_CATCH_UP_MONTHS,
  HR_WEEKS_CATCH_UP,
  hrDeparturesQueue,
  hrLeaveQueue,
} from '../queues/hr';
import { DateTime } from 'luxon';
import { crmHealthNightlyQueue } from '../queues/crm';
import { knowledgeStatsQueue } from '../queues/knowledge';
import { deliveriesPruneQueue } from '../queues/notifications';
import { presenceSweepQueue, telemetryPartitionsQueue } from '../queues/vr';
import { webhookLogPruneQueue } from '../queues/webhooks';

/**
 * A clock schedule only enqueues. The job id names the time slot (BullMQ ids may not contain ":"), so two clock processes (or a restart
 * inside the same minute) enqueue a slot once; or, for work that must not be missed while the clock is down
 * (hr-monthly-leave), the period it covers, offered again by every later slot until it is done.
 */
export interface Schedule {
  name: string;
  /** node-cron expression (seconds field optional). */
  cron: string;
  /** `at` is the time the clock fired the slot (default now). */
  enqueue(services: Services, slot: string, at?: Date): Promise<unknown>;
}

/** Every schedule of the suite. */
export const schedules: Schedule[] = [
  // Jobs committed with their rows but not enqueued by their writer (a crash, a Redis outage).
  {
    name: 'staged-jobs-relay',
    cron: '* * * * *',
    enqueue: (services, slot) => services.queues.add(stagedJobsRelayQueue, { slot }, { jobId: `staged-jobs.${slot}` }),
  },
  {
    name: 'trial-expiry',
    cron: '* * * * *',
    enqueue: (services, slot) => services.queues.add(trialExpiryQueue, { slot }, { jobId: slot }),
  },
  // Presence expires PRESENCE_TTL_SECONDS after the last heartbeat; departures are recorded within 5 s of that.
  // Upload reservations expire CLOUD_UPLOAD_TTL_SECONDS + 10 min after they start; the trash keeps CLOUD_TRASH_RETENTION_DAYS.
  {
    name: 'cloud-sweep',
    cron: '* * * * *',
    enqueue: (services, slot) => services.queues.add(cloudSweepQueue, { slot }, { jobId: slot }),
  },
  // The versions' retention thins by hours, days and weeks (domain/cloud/versionRetention.ts): hourly is enough.
  {
    name: 'cloud-versions',
    cron: '17 * * * *',
    enqueue: (services, slot) => services.queues.add(cloudVersionsQueue, { slot }, { jobId: slot }),
  },
  // CRM health scores follow time (recency, overdue tasks) even without events: every customer, nightly.
  {
    name: 'crm-health-nightly',
    cron: '30 2 * * *',
    enqueue: (services, slot) => services.queues.add(crmHealthNightlyQueue, { slot }, { jobId: slot }),
  },
  // Knowledge: view and search-miss counters move from Redis to the statistics tables.
  {
    name: 'knowledge-stats',
    cron: '* * * * *',
    enqueue: (services, slot) => services.queues.add(knowledgeStatsQueue, { slot }, { jobId: `kb-stats.${slot}` }),
  },
  // Telemetry months: created ahead, dropped past their retention (domain/vr/maintainPartitions.ts).
  {
    name: 'vr-telemetry-partitions',
    cron: '41 3 * * *',
    enqueue: (services, slot) => services.queues.add(telemetryPartitionsQueue, { slot }, { jobId: slot }),
  },
  {
    name: 'vr-presence-sweep',
    cron: '*/5 * * * * *',
    enqueue: (services, slot) => services.queues.add(presenceSweepQueue, {}, { jobId: slot }),
  },
  // E-invoice lifecycle statuses (delivered, refused, paid ...) read from the platform.
  {
    name: 'einvoice-poll',
    cron: '*/10 * * * *',
    enqueue: (services, slot) =>
      services.queues.add(einvoiceQueue, { kind: 'poll', slot }, { jobId: `einvoice.poll.${slot}` }),
  },
  // E-reporting: the reports of the periods closed by now (each period and kind once: unique in the database), hourly,
  // so a clock that was down catches up every missed period on its first pass (domain/core/invoices/ereporting/).
  {
    name: 'einvoice-ereporting',
    cron: '45 * * * *',
    enqueue: (services, slot, at = new Date()) =>
      services.queues.add(
        einvoiceQueue,
        { kind: 'ereporting', slot, at: at.toISOString() },
        { jobId: `einvoice.ereporting.${slot}` },
      ),
  },
  // Delivery records (hub attempts, processed GitHub deliveries) past DELIVERY_RETENTION_DAYS, nightly.
  {
    name: 'deliveries-prune',
    cron: '15 4 * * *',
    enqueue: (services, slot) =>
      services.queues.add(deliveriesPruneQueue, { slot }, { jobId: `deliveries-prune-${slot}` }),
  },
  // Customers' webhook log (settled deliveries, their attempts, events left without one) past
  // WEBHOOK_LOG_RETENTION_DAYS, nightly; pending deliveries are never deleted.
  {
    name: 'webhook-log-prune',
    cron: '25 4 * * *',
    enqueue: (services, slot) =>
      services.queues.add(webhookLogPruneQueue, { slot }, { jobId: `webhook-log-prune-${slot}` }),
  },
  // Invoicing: payment reminders of the organisations' plans (each step of an invoice mailed once), hourly so a
  // clock that was down catches up within the reminders' window (domain/core/invoices/reminders/reminderStep.ts).
  {
    name: 'invoice-reminders',
    cron: '20 * * * *',
    enqueue: (services, slot) =>
      services.queues.add(invoiceRemindersQueue, { slot }, { jobId: `invoice-reminders-${slot}` }),
  },
  // Invoicing: recurring invoices, each due period invoiced once (unique (schedule, period)); hourly, and a pass
  // after the clock was down catches up every missed period (domain/core/invoices/recurring/runRecurringInvoices.ts).
  {
    name: 'invoice-recurring',
    cron: '35 * * * *',
    enqueue: (services, slot) =>
      services.queues.add(recurringInvoicesQueue, { slot }, { jobId: `invoice-recurring-${slot}` }),
  },
  // Booking: reminders of appointments starting within 24 h (each mailed once).
  {
    name: 'booking-reminders',
    cron: '*/5 * * * *',
    enqueue: (services, slot) =>
      services.queues.add(bookingRemindersQueue, { slot }, { jobId: `booking-reminders-${slot}` }),
  },
  // Booking: waitlist holds past BOOKING_WAITLIST_HOLD_MINUTES end and pass to the next in line; passed days close.
  {
    name: 'booking-waitlist-sweep',
    cron: '* * * * *',
    enqueue: (services, slot) =>
      services.queues.add(bookingWaitlistSweepQueue, { slot }, { jobId: `booking-waitlist-sweep-${slot}` }),
  },
  // External calendars due a sync (CALENDAR_SYNC_MINUTES after their last one) get one.
  {
    name: 'calendar-sync-sweep',
    cron: '*/5 * * * *',
    enqueue: (services, slot) =>
      services.queues.add(calendarSyncSweepQueue, { slot }, { jobId: `calendar-sync-sweep-${slot}` }),
  },
  // HR: a month that ended earns its paid leave and RTT (each credited once per employee and month by the ledger's
  // unique index). Hourly, with job ids naming the month rather than the slot: the first hour the clock runs after a
  // month ended enqueues it, the later ones find its job and enqueue nothing, and a clock that was down catches up
  // on the last HR_LEAVE_CATCH_UP_MONTHS ended months (queues/hr.ts).
  {
    name: 'hr-monthly-leave',
    cron: '0 * * * *',
    enqueue: (services, _slot, at = new Date()) =>
      services.queues.addBulk(
        hrLeaveQueue,
        endedMonths(HR_LEAVE_CATCH_UP_MONTHS, at).flatMap((period) => [
          { payload: { task: 'accrual' as const, period }, options: { jobId: `accrual-${period}` } },
          { payload: { task: 'rtt' as const, period }, options: { jobId: `rtt-${period}` } },
        ]),
      ),
  },
  // HR: a week that ended everywhere closes its time counters (one per employee and week, immutable); hourly with
  // job ids naming the week, so a clock down for less than HR_WEEKS_CATCH_UP weeks misses none (queues/hr.ts).
  {
    name: 'hr-week-counters',
    cron: '15 * * * *',
    enqueue: (services, _slot, at = new Date()) =>
      services.queues.addBulk(
        hrLeaveQueue,
        endedWeeks(HR_WEEKS_CATCH_UP, at).map((period) => ({
          payload: { task: 'week' as const, period },
          options: { jobId: `week-${period}` },
        })),
      ),
  },
  // HR: employees past their last day (a local date) become `left`; hourly, so every time zone's midnight is met within the hour.
  {
    name: 'hr-departures',
    cron: '5 * * * *',
    enqueue: (services, slot) => services.queues.add(hrDeparturesQueue, { slot }, { jobId: `hr-departures-${slot}` }),
  },
  // HR: every night the last two weeks are scanned (an alert is raised once per breach, so overlaps are harmless).
  {
    name: 'hr-compliance-scan',
    cron: '30 3 * * *',
    enqueue: (services, slot) => {
      const today = DateTime.now().setZone('Europe/Paris');
      return services.queues.add(
        complianceQueue,
        { from: today.minus({ days: 14 }).toISODate()!, to: today.minus({ days: 1 }).toISODate()! },
        { jobId: `compliance-${slot}` },
      );
    },
  },
];
