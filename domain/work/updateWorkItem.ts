import type { WorkItem, WorkItemStatus } from '../../entities/work/workItem';
import type { TenantContext } from '../context';
import { linkColumns, sameLink, type WorkItemLink } from './links';
import { findWorkItem } from './store';

export interface UpdateWorkItemProps {
  title?: string;
  description?: string | null;
  status?: WorkItemStatus;
  /**
   * null unlinks; a changed link (provider, repository compared case-insensitively, or number) forgets the
   * last code-host event applied. The item's own link sent back unchanged keeps it (the ordering guard).
   */
  link?: WorkItemLink | null;
}

/** Edits a work item (fields left out are kept). */
export async function updateWorkItem(ctx: TenantContext, id: string, props: UpdateWorkItemProps): Promise<WorkItem> {
  const item = await findWorkItem(ctx.em, id);
  if (props.title !== undefined) item.title = props.title.trim();
  if (props.description !== undefined) item.description = props.description;
  if (props.status !== undefined) item.status = props.status;
  if (props.link !== undefined) {
    const columns = linkColumns(props.link);
    if (!sameLink(item, columns)) Object.assign(item, columns);
  }
  await ctx.em.flush();
  return item;
}
