import type { WorkItem, WorkItemStatus } from '../../entities/work/workItem';
import type { TenantContext } from '../context';
import { findWorkItem, linkColumns, type WorkItemLink } from './workItems';

export interface UpdateWorkItemProps {
  title?: string;
  description?: string | null;
  status?: WorkItemStatus;
  /** null unlinks; a new link forgets the last code-host event applied. */
  link?: WorkItemLink | null;
}

/** Edits a work item (fields left out are kept). */
export async function updateWorkItem(ctx: TenantContext, id: string, props: UpdateWorkItemProps): Promise<WorkItem> {
  const item = await findWorkItem(ctx, id);
  if (props.title !== undefined) item.title = props.title.trim();
  if (props.description !== undefined) item.description = props.description;
  if (props.status !== undefined) item.status = props.status;
  if (props.link !== undefined) Object.assign(item, linkColumns(props.link));
  await ctx.em.flush();
  return item;
}
