import type { GithubDeliveryOutcome } from '../../entities/work/github';
import { toPage, type Page, type PageProps } from '../../lib/pagination';
import type { Services } from '../services';
import { githubDeliveriesNewestFirst, type GithubDeliverySummary } from './store';

export interface GithubDeliveriesQuery extends PageProps {
  tenantId?: string;
  /** `pending`: stored, not processed yet (failed ones excepted). */
  status?: 'pending' | GithubDeliveryOutcome;
}

/** Every organisation's GitHub deliveries, newest first, without their payloads (platform administrators). */
export async function listGithubDeliveries(
  services: Services,
  q: GithubDeliveriesQuery,
): Promise<Page<GithubDeliverySummary>> {
  const outcome = q.status === 'pending' ? null : (q.status ?? null);
  const rows = await githubDeliveriesNewestFirst(services, {
    tenantId: q.tenantId ?? null,
    outcome,
    pendingOnly: q.status === 'pending',
    before: q.cursor ?? null,
    limit: q.limit + 1,
  });
  return toPage(rows, q.limit);
}
