import { stripeEventsProcessor } from './billing/stripeEvents';
import { trialExpiryProcessor } from './billing/trialExpiry';
import { calendarSyncProcessor, calendarSyncSweepProcessor } from './booking/calendarSync';
import { bookingRemindersProcessor } from './booking/reminders';
import { bookingWaitlistProcessor, bookingWaitlistSweepProcessor } from './booking/waitlist';
import { cloudPreviewsProcessor } from './cloud/previews';
import { cloudQuotaProcessor } from './cloud/quota';
import { cloudSweepProcessor } from './cloud/sweep';
import { cloudVersionsProcessor } from './cloud/versions';
import { crmFieldPurgeProcessor } from './crm/fieldPurge';
import { crmHealthNightlyProcessor, crmHealthProcessor } from './crm/health';
import { crmImportProcessor } from './crm/import';
import type { Processor } from './define';
import { einvoiceProcessor } from './einvoice/einvoice';
import { invoiceRemindersProcessor } from './invoices/reminders';
import { recurringInvoicesProcessor } from './invoices/recurring';
import { complianceProcessor } from './hr/compliance';
import { hrDeparturesProcessor } from './hr/departures';
import { hrLeaveProcessor } from './hr/leave';
import { stagedJobsRelayProcessor } from './jobs/relay';
import { accountLinksProcessor } from './identity/accountLinks';
import { broadcastProcessor } from './identity/broadcast';
import { mailProcessor } from './identity/mail';
import { knowledgeMailingProcessor, knowledgeStatsProcessor } from './knowledge/knowledge';
import { deliveriesPruneProcessor } from './notifications/deliveriesPrune';
import { hubNotificationsProcessor } from './notifications/hubNotifications';
import { presenceSweepProcessor } from './vr/presenceSweep';
import { telemetryPartitionsProcessor } from './vr/partitions';
import { telemetryProcessor } from './vr/telemetry';
import { githubDeliveriesProcessor } from './work/githubDeliveries';
import { webhookDeliveriesProcessor } from './webhooks/deliveries';
import { webhookLogPruneProcessor } from './webhooks/logPrune';

/** Every processor of the suite; each queue of queues/index.ts has exactly one. */
export const allProcessors: readonly Processor<never>[] = [
  mailProcessor,
  broadcastProcessor,
  accountLinksProcessor,
  stripeEventsProcessor,
  trialExpiryProcessor,
  telemetryProcessor,
  hubNotificationsProcessor,
  deliveriesPruneProcessor,
  presenceSweepProcessor,
  telemetryPartitionsProcessor,
  cloudQuotaProcessor,
  cloudSweepProcessor,
  cloudVersionsProcessor,
  cloudPreviewsProcessor,
  einvoiceProcessor,
  invoiceRemindersProcessor,
  recurringInvoicesProcessor,
  hrLeaveProcessor,
  complianceProcessor,
  hrDeparturesProcessor,
  crmImportProcessor,
  crmHealthProcessor,
  crmHealthNightlyProcessor,
  crmFieldPurgeProcessor,
  bookingRemindersProcessor,
  bookingWaitlistProcessor,
  bookingWaitlistSweepProcessor,
  calendarSyncProcessor,
  calendarSyncSweepProcessor,
  githubDeliveriesProcessor,
  knowledgeMailingProcessor,
  knowledgeStatsProcessor,
  stagedJobsRelayProcessor,
  webhookDeliveriesProcessor,
  webhookLogPruneProcessor,
] as Processor<never>[];
