import type { WorkItemStatus } from '../../entities/work/workItem';

/** What a delivery asks of the linked work items, or null when it concerns none of them. */
export interface GithubEffect {
  repository: string;
  number: number;
  status: WorkItemStatus;
  /** The issue's or pull request's updated_at: an older event never overwrites a newer one. */
  updatedAt: Date;
  /** updated_at as GitHub wrote it, to find the other deliveries of the same instant (ties, see processGithubDelivery). */
  updatedAtText: string;
}

const record = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/**
 * issues and pull_request with action closed: the linked item becomes done (issue) or resolved (pull
 * request); reopened: in_progress. Every other event or action is recorded and ignored.
 */
export function githubEffect(event: string, payload: Record<string, unknown>): GithubEffect | null {
  if (event !== 'issues' && event !== 'pull_request') return null;
  const action = payload.action;
  if (action !== 'closed' && action !== 'reopened') return null;
  const subject = record(event === 'issues' ? payload.issue : payload.pull_request);
  const repository = record(payload.repository)?.full_name;
  const number = subject?.number;
  const updatedAtText = String(subject?.updated_at);
  const updatedAt = new Date(updatedAtText);
  if (
    typeof repository !== 'string' ||
    typeof number !== 'number' ||
    !Number.isInteger(number) ||
    number <= 0 ||
    Number.isNaN(updatedAt.getTime())
  )
    return null;
  const status: WorkItemStatus = action === 'reopened' ? 'in_progress' : event === 'issues' ? 'done' : 'resolved';
  return { repository: repository.toLowerCase(), number, status, updatedAt, updatedAtText };
}
