import { relayQueuedMails } from '../../domain/identity/relayQueuedMails';
import { relayStagedJobs } from '../../domain/jobs/relayStagedJobs';
import { stagedJobsRelayQueue } from '../../queues/jobs';
import { defineProcessor } from '../define';

/** Enqueues what writers committed but did not enqueue: staged jobs and queued mails (domain/jobs, domain/identity). */
export const stagedJobsRelayProcessor = defineProcessor(stagedJobsRelayQueue, {
  perform: async (_payload, { services }) => ({ jobs: await relayStagedJobs(services), mails: await relayQueuedMails(services) }),
});
