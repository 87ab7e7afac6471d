import { Activity } from '../../../../entities/core/activity';
import type { Em } from '../../../../lib/db';
import { lean } from '../../../../lib/lean';
import { bound } from './sql';

/** Where undated tasks sort: after every due date. */
export const UNDATED_DUE = '9999-12-31T00:00:00.000Z';

// A lean statement (docs/database-path.md): every filter is a parameter, null when not asked for ($1 assignee,
// $2 due from, $3 due before, $4 and $5 the cursor's due date and id, $6 the page size); the customer joined
// through the activity's own customer id.
export const openTasksPage = lean(Activity, {
  join: 'join crm_customers c on c.id = crm_activities.customer_id and c.tenant_id = crm_activities.tenant_id',
  where: `crm_activities.completed_at is null and (crm_activities.type = 'task' or crm_activities.due_at is not null)
    and ($1::uuid is null or crm_activities.assignee_id = $1)
    and ($2::timestamptz is null or crm_activities.due_at >= $2) and ($3::timestamptz is null or crm_activities.due_at < $3)
    and ($4::timestamptz is null or (coalesce(crm_activities.due_at, '${UNDATED_DUE}'::timestamptz), crm_activities.id) > ($4, $5::uuid))`,
  orderBy: `coalesce(crm_activities.due_at, '${UNDATED_DUE}'::timestamptz), crm_activities.id`,
  limitParam: '$6',
  extra: { customerName: 'c.name' },
});

// A lean statement (docs/database-path.md): a customer's activities below the cursor's key ($2 time, $3 id),
// optionally from a time on ($4), at most $5.
export const activitiesBefore = lean(Activity, {
  columns: ['id', 'occurredAt', 'type', 'subject', 'body', 'dueAt', 'completedAt', 'assigneeId', 'source'],
  where:
    'customer_id = $1 and (occurred_at, id) < ($2::timestamptz, $3::uuid) and ($4::timestamptz is null or occurred_at >= $4)',
  orderBy: 'occurred_at desc, id desc',
  limitParam: '$5',
});

/** An activity of another system, as the sync upsert reads it. */
export interface SyncedActivityRow {
  id: string;
  customer_id: string;
  external_id: string;
  type: string;
  subject: string;
  body: string;
  occurred_at: string;
  due_at: string | null;
  completed_at: string | null;
}

/**
 * Upserts activities of another system by (customer, source, externalId) in one multi-row statement (the batch
 * travels as one JSON document); `inserted` tells the new ones.
 */
export function upsertSyncedActivities(em: Em, tenantId: string, source: string, now: Date, rows: SyncedActivityRow[]) {
  return bound<{ id: string; external_id: string; customer_id: string; inserted: boolean }>(
    em,
    `insert into crm_activities (tenant_id, created_at, updated_at, source, id, customer_id, external_id, type, subject, body, occurred_at, due_at, completed_at, assignee_id, created_by)
     select ?::uuid, ?::timestamptz, ?::timestamptz, ?, r.id, r.customer_id, r.external_id, r.type, r.subject, r.body, r.occurred_at, r.due_at, r.completed_at, null, null
       from jsonb_to_recordset(?::jsonb)
         as r(id uuid, customer_id uuid, external_id text, type text, subject text, body text, occurred_at timestamptz, due_at timestamptz, completed_at timestamptz)
     on conflict (tenant_id, customer_id, source, external_id) do update set updated_at = excluded.updated_at, type = excluded.type, subject = excluded.subject,
       body = excluded.body, occurred_at = excluded.occurred_at, due_at = excluded.due_at, completed_at = excluded.completed_at
     returning id, external_id, customer_id, (xmax = 0) as inserted`,
    [tenantId, now, now, source, JSON.stringify(rows)],
  );
}
