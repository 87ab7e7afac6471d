import { Activity } from '../../../entities/core/activity';
import { badRequest } from '../../../lib/errors';
import type { Lean } from '../../../lib/lean';
import type { Page } from '../../../lib/pagination';
import type { TenantContext } from '../../context';
import { isUtcTimestamp } from '../../../lib/calendar';
import { openTasksPage, UNDATED_DUE } from './store/activities';

export interface ListTasksProps {
  /** me: assigned to the caller (default); anyone; or a member's id. */
  assignee: 'me' | 'anyone' | string;
  /** overdue: due before now; soon: due from now to now + days; all (default): every open follow-up. */
  due: 'overdue' | 'soon' | 'all';
  /** Horizon of `soon` in days (default 7). */
  days: number;
  limit: number;
  cursor?: string;
}

export interface TaskItem {
  activity: Lean<Activity>;
  customerName: string;
}

/**
 * Open follow-ups across customers: activities not completed that are tasks or have a due date, soonest due
 * first (undated tasks last). Cursor: the due date and id of the last item.
 */
export async function listTasks(ctx: TenantContext, props: ListTasksProps): Promise<Page<TaskItem>> {
  let assignee: string | null = null;
  if (props.assignee === 'me') {
    if (!ctx.userId)
      throw badRequest('validation_failed', 'No caller', [
        { field: 'assignee', message: 'me needs a signed-in member' },
      ]);
    assignee = ctx.userId;
  } else if (props.assignee !== 'anyone') assignee = props.assignee;
  const now = new Date();
  const dueFrom = props.due === 'soon' ? now : null;
  const dueBefore =
    props.due === 'overdue' ? now : props.due === 'soon' ? new Date(now.getTime() + props.days * 86_400_000) : null;
  let after: [string, string] | [null, null] = [null, null];
  if (props.cursor) {
    const [at, id] = Buffer.from(props.cursor, 'base64url').toString().split('|');
    // The cursor's own form only (toISOString of a due date): Date.parse takes "1", which PostgreSQL refuses.
    if (!id || !/^[0-9a-f-]{36}$/.test(id) || !isUtcTimestamp(at))
      throw badRequest('validation_failed', 'The cursor is invalid', [
        { field: 'cursor', message: 'is not a cursor of this list' },
      ]);
    after = [at, id];
  }
  const rows = await openTasksPage.all(ctx, assignee, dueFrom, dueBefore, ...after, props.limit + 1);
  const items = rows
    .slice(0, props.limit)
    .map(({ customerName, ...activity }) => ({ activity, customerName: customerName as string }));
  const last = items[items.length - 1];
  const nextCursor =
    rows.length > props.limit && last
      ? Buffer.from(`${(last.activity.dueAt ?? new Date(UNDATED_DUE)).toISOString()}|${last.activity.id}`).toString(
          'base64url',
        )
      : null;
  return { items, nextCursor };
}
