import { Activity } from '../../../entities/core/activity';
import { badRequest } from '../../../lib/errors';
import { lean, type Lean } from '../../../lib/lean';
import type { Page } from '../../../lib/pagination';
import type { TenantContext } from '../../context';
import { isUtcTimestamp } from '../../../lib/calendar';

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

// Undated tasks sort last.
const FAR = '9999-12-31T00:00:00.000Z';

// A lean statement (docs/database-path.md): every filter is a parameter, null when not asked for; the customer
// joined through the activity's own customer id.
const openTasksPage = lean(Activity, {
  join: 'join crm_customers c on c.id = crm_activities.customer_id and c.tenant_id = crm_activities.tenant_id',
  where: `crm_activities.completed_at is null and (crm_activities.type = 'task' or crm_activities.due_at is not null)
    and ($1::uuid is null or crm_activities.assignee_id = $1)
    and ($2::timestamptz is null or crm_activities.due_at >= $2) and ($3::timestamptz is null or crm_activities.due_at < $3)
    and ($4::timestamptz is null or (coalesce(crm_activities.due_at, '${FAR}'::timestamptz), crm_activities.id) > ($4, $5::uuid))`,
  orderBy: `coalesce(crm_activities.due_at, '${FAR}'::timestamptz), crm_activities.id`,
  limitParam: '$6',
  extra: { customerName: 'c.name' },
});

/**
 * Open follow-ups across customers: activities not completed that are tasks or have a due date, soonest due
 * first (undated tasks last). Cursor: the due date and id of the last item.
 */
export async function listTasks(ctx: TenantContext, props: ListTasksProps): Promise<Page<TaskItem>> {
  let assignee: string | null = null;
  if (props.assignee === 'me') {
    if (!ctx.userId) throw badRequest('validation_failed', 'No caller', [{ field: 'assignee', message: 'me needs a signed-in member' }]);
    assignee = ctx.userId;
  } else if (props.assignee !== 'anyone') assignee = props.assignee;
  const now = new Date();
  const dueFrom = props.due === 'soon' ? now : null;
  const dueBefore = props.due === 'overdue' ? now : props.due === 'soon' ? new Date(now.getTime() + props.days * 86_400_000) : null;
  let after: [string, string] | [null, null] = [null, null];
  if (props.cursor) {
    const [at, id] = Buffer.from(props.cursor, 'base64url').toString().split('|');
    // The cursor's own form only (toISOString of a due date): Date.parse takes "1", which PostgreSQL refuses.
    if (!id || !/^[0-9a-f-]{36}$/.test(id) || !isUtcTimestamp(at)) throw badRequest('validation_failed', 'The cursor is invalid', [{ field: 'cursor', message: 'is not a cursor of this list' }]);
    after = [at, id];
  }
  const rows = await openTasksPage.all(ctx, assignee, dueFrom, dueBefore, ...after, props.limit + 1);
  const items = rows.slice(0, props.limit).map(({ customerName, ...activity }) => ({ activity, customerName: customerName as string }));
  const last = items[items.length - 1];
  const nextCursor = rows.length > props.limit && last ? Buffer.from(`${(last.activity.dueAt ?? new Date(FAR)).toISOString()}|${last.activity.id}`).toString('base64url') : null;
  return { items, nextCursor };
}
