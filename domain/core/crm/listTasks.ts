import { Activity } from '../../../entities/core/activity';
import { badRequest } from '../../../lib/errors';
import type { Page } from '../../../lib/pagination';
import type { TenantContext } from '../../context';

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
  activity: Activity;
  customerName: string;
}

const FAR = '9999-12-31T00:00:00.000Z';

/**
 * Open follow-ups across customers: activities not completed that are tasks or have a due date, soonest due
 * first (undated tasks last). Cursor: the due date and id of the last item.
 */
export async function listTasks(ctx: TenantContext, props: ListTasksProps): Promise<Page<TaskItem>> {
  const where = [`a.tenant_id = ?`, `a.completed_at is null`, `(a.type = 'task' or a.due_at is not null)`];
  const params: unknown[] = [ctx.tenantId];
  const and = (sql: string, ...values: unknown[]) => {
    where.push(sql);
    params.push(...values);
  };
  if (props.assignee === 'me') {
    if (!ctx.userId) throw badRequest('validation_failed', 'No caller', [{ field: 'assignee', message: 'me needs a signed-in member' }]);
    and('a.assignee_id = ?', ctx.userId);
  } else if (props.assignee !== 'anyone') and('a.assignee_id = ?', props.assignee);
  const now = new Date();
  if (props.due === 'overdue') and('a.due_at < ?', now);
  if (props.due === 'soon') and('a.due_at >= ? and a.due_at < ?', now, new Date(now.getTime() + props.days * 86_400_000));
  if (props.cursor) {
    const [at, id] = Buffer.from(props.cursor, 'base64url').toString().split('|');
    if (!id || !/^[0-9a-f-]{36}$/.test(id) || Number.isNaN(Date.parse(at))) throw badRequest('validation_failed', 'The cursor is invalid', [{ field: 'cursor', message: 'is not a cursor of this list' }]);
    and(`(coalesce(a.due_at, ?::timestamptz), a.id) > (?::timestamptz, ?)`, FAR, at, id);
  }
  params.push(props.limit + 1);
  const rows = await ctx.em.execute<(Record<string, unknown> & { customer_name: string })[]>(
    `select a.*, c.name as customer_name from crm_activities a join crm_customers c on c.id = a.customer_id where ${where.join(' and ')} order by coalesce(a.due_at, '${FAR}'::timestamptz), a.id limit ?`,
    params,
  );
  const items = rows.slice(0, props.limit).map(({ customer_name, ...row }) => ({ activity: ctx.em.map(Activity, row), customerName: customer_name }));
  const last = items[items.length - 1];
  const nextCursor = rows.length > props.limit && last ? Buffer.from(`${(last.activity.dueAt ?? new Date(FAR)).toISOString()}|${last.activity.id}`).toString('base64url') : null;
  return { items, nextCursor };
}
