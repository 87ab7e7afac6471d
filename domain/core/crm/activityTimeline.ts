import { Activity } from '../../../entities/core/activity';
import { lean } from '../../../lib/lean';
import { registerTimelineProvider, type TimelineItem } from './timeline';

// A lean statement (docs/database-path.md): the range below the cursor's key, optionally from a time on.
const activitiesBefore = lean(Activity, {
  columns: ['id', 'occurredAt', 'type', 'subject', 'body', 'dueAt', 'completedAt', 'assigneeId', 'source'],
  where: 'customer_id = $1 and (occurred_at, id) < ($2::timestamptz, $3::uuid) and ($4::timestamptz is null or occurred_at >= $4)',
  orderBy: 'occurred_at desc, id desc',
  limitParam: '$5',
});

/** The CRM's own timeline source: the customer's activities, placed at occurredAt. */
registerTimelineProvider('activity', async (ctx, customerId, query) => {
  const activities = await activitiesBefore.all(ctx, customerId, query.before.at, query.before.id, query.from ?? null, query.limit);
  return activities.map(
    (a): TimelineItem => ({
      source: 'activity',
      id: a.id,
      at: a.occurredAt,
      type: a.type,
      title: a.subject,
      summary: a.body ? a.body.slice(0, 280) : null,
      data: { dueAt: a.dueAt?.toISOString() ?? null, completedAt: a.completedAt?.toISOString() ?? null, assigneeId: a.assigneeId, source: a.source },
    }),
  );
});
