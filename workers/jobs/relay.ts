import { redriveStripeEvents } from '../../domain/billing/redriveStripeEvents';
import { redriveImports } from '../../domain/core/crm/imports/redriveImports';
import { redriveSubmissions } from '../../domain/core/invoices/einvoice/redriveSubmissions';
import { relayQueuedMails } from '../../domain/platform/relayQueuedMails';
import { redriveFailedJobs } from '../../domain/jobs/redriveFailedJobs';
import { relayStagedJobs } from '../../domain/jobs/relayStagedJobs';
import { redriveWebhooks } from '../../domain/webhooks/redriveWebhooks';
import { stagedJobsRelayQueue } from '../../queues/jobs';
import { defineProcessor } from '../define';

/**
 * The reconciliation, every minute: enqueues what writers committed but did not enqueue (staged jobs), and gives
 * every accepted item not applied yet a job that will run (queued mails, stored Stripe events, open imports, queued
 * e-invoices, failed jobs that were the only record of accepted work). Each step is idempotent.
 */
export const stagedJobsRelayProcessor = defineProcessor(stagedJobsRelayQueue, {
  perform: async (_payload, { services }) => ({
    jobs: await relayStagedJobs(services),
    mails: await relayQueuedMails(services),
    stripeEvents: await redriveStripeEvents(services),
    imports: await redriveImports(services),
    einvoices: await redriveSubmissions(services),
    failedJobs: await redriveFailedJobs(services),
    webhooks: await redriveWebhooks(services),
  }),
});
