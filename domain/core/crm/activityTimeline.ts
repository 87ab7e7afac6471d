import { Activity } from '../../../entities/core/activity';
import { registerTimelineProvider, type TimelineItem } from './timeline';

/** The CRM's own timeline source: the customer's activities, placed at occurredAt. */
registerTimelineProvider('activity', async (ctx, customerId, query) => {
  const params: unknown[] = [ctx.tenantId, customerId, query.before.at, query.before.id];
  let range = '';
  if (query.from) {
    range = ' and occurred_at >= ?';
    params.push(query.from);
  }
  params.push(query.limit);
  const rows = await ctx.em.execute<Record<string, unknown>[]>(
    `select * from crm_activities where tenant_id = ? and customer_id = ? and (occurred_at, id) < (?, ?::uuid)${range} order by occurred_at desc, id desc limit ?`,
    params,
  );
  return rows.map((row): TimelineItem => {
    const a = ctx.em.map(Activity, row);
    return {
      source: 'activity',
      id: a.id,
      at: a.occurredAt,
      type: a.type,
      title: a.subject,
      summary: a.body ? a.body.slice(0, 280) : null,
      data: { dueAt: a.dueAt?.toISOString() ?? null, completedAt: a.completedAt?.toISOString() ?? null, assigneeId: a.assigneeId, source: a.source },
    };
  });
});
