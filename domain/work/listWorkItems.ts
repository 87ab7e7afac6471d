import type { WorkItem, WorkItemStatus } from '../../entities/work/workItem';
import type { Lean } from '../../lib/lean';
import { toPage, type Page, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { workItemsNewestFirst } from './store';

export interface ListWorkItemsProps extends PageProps {
  status?: WorkItemStatus;
  repository?: string;
}

/** Newest first, optionally by status or linked repository. */
export async function listWorkItems(ctx: TenantContext, props: ListWorkItemsProps): Promise<Page<Lean<WorkItem>>> {
  const filter = {
    status: props.status ?? null,
    repository: props.repository?.toLowerCase() ?? null,
    before: props.cursor ?? null,
  };
  return toPage(await workItemsNewestFirst(ctx, filter, props.limit + 1), props.limit);
}
