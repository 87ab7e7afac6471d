import { WorkItem, type WorkItemStatus } from '../../entities/work/workItem';
import type { TenantContext } from '../context';
import { linkColumns, type WorkItemLink } from './links';

export interface CreateWorkItemProps {
  title: string;
  description?: string | null;
  status?: WorkItemStatus;
  link?: WorkItemLink | null;
}

/** Creates a work item of the organisation, optionally linked to a code-host issue or pull request. */
export async function createWorkItem(ctx: TenantContext, props: CreateWorkItemProps): Promise<WorkItem> {
  const item = ctx.em.create(WorkItem, {
    tenantId: ctx.tenantId,
    title: props.title.trim(),
    description: props.description ?? null,
    status: props.status ?? 'todo',
    ...linkColumns(props.link ?? null),
    createdBy: ctx.userId,
  });
  await ctx.em.flush();
  return item;
}
