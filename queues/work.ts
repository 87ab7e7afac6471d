import { defineQueue } from './define';

/** One stored GitHub delivery to process. Job id: gh.<tenantId>.<delivery row id>. */
export interface GithubDeliveryJob {
  tenantId: string;
  /** The work_github_deliveries row id. */
  id: string;
}

/** Code-host webhook deliveries: retried like every queue; one that exhausts its attempts is marked failed and kept in the dashboard. */
export const githubDeliveriesQueue = defineQueue<GithubDeliveryJob>('github-deliveries', { concurrency: 64 });
