import { activitiesBefore } from './store/activities';
import { registerTimelineProvider, type TimelineItem } from './timeline';

/** The CRM's own timeline source: the customer's activities, placed at occurredAt. */
registerTimelineProvider('activity', async (ctx, customerId, query) => {
  const activities = await activitiesBefore.all(
    ctx,
    customerId,
    query.before.at,
    query.before.id,
    query.from ?? null,
    query.limit,
  );
  return activities.map((a): TimelineItem => ({
    source: 'activity',
    id: a.id,
    at: a.occurredAt,
    type: a.type,
    title: a.subject,
    summary: a.body ? a.body.slice(0, 280) : null,
    data: {
      dueAt: a.dueAt?.toISOString() ?? null,
      completedAt: a.completedAt?.toISOString() ?? null,
      assigneeId: a.assigneeId,
      source: a.source,
    },
  }));
});
