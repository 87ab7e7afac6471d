import { stripeEventsQueue, trialExpiryQueue } from './billing';
import {
  bookingRemindersQueue,
  bookingWaitlistQueue,
  bookingWaitlistSweepQueue,
  calendarSyncQueue,
  calendarSyncSweepQueue,
} from './booking';
import { cloudPreviewsQueue, cloudQuotaQueue, cloudSweepQueue, cloudVersionsQueue } from './cloud';
import { crmFieldPurgeQueue, crmHealthNightlyQueue, crmHealthQueue, crmImportQueue } from './crm';
import type { QueueDefinition } from './define';
import { einvoiceQueue } from './einvoice';
import { invoiceRemindersQueue, recurringInvoicesQueue } from './invoices';
import { stagedJobsRelayQueue } from './jobs';
import { accountLinkQueue, broadcastQueue, mailQueue } from './identity';
import { complianceQueue, hrDeparturesQueue, hrLeaveQueue } from './hr';
import { knowledgeMailingQueue, knowledgeStatsQueue } from './knowledge';
import { deliveriesPruneQueue, hubNotificationsQueue } from './notifications';
import { presenceSweepQueue, telemetryPartitionsQueue, telemetryQueue } from './vr';
import { githubDeliveriesQueue } from './work';
import { webhookDeliveriesQueue, webhookLogPruneQueue } from './webhooks';

/** Every queue of the suite. workers/main.ts refuses to start unless each has exactly one processor. */
export const allQueues: readonly QueueDefinition<never>[] = [
  mailQueue,
  broadcastQueue,
  accountLinkQueue,
  stripeEventsQueue,
  trialExpiryQueue,
  telemetryQueue,
  hubNotificationsQueue,
  deliveriesPruneQueue,
  presenceSweepQueue,
  telemetryPartitionsQueue,
  cloudQuotaQueue,
  cloudSweepQueue,
  cloudVersionsQueue,
  cloudPreviewsQueue,
  einvoiceQueue,
  invoiceRemindersQueue,
  recurringInvoicesQueue,
  hrLeaveQueue,
  complianceQueue,
  hrDeparturesQueue,
  crmImportQueue,
  crmHealthQueue,
  crmHealthNightlyQueue,
  crmFieldPurgeQueue,
  bookingRemindersQueue,
  bookingWaitlistQueue,
  bookingWaitlistSweepQueue,
  calendarSyncQueue,
  calendarSyncSweepQueue,
  githubDeliveriesQueue,
  knowledgeMailingQueue,
  knowledgeStatsQueue,
  stagedJobsRelayQueue,
  webhookDeliveriesQueue,
  webhookLogPruneQueue,
] as QueueDefinition<never>[];
