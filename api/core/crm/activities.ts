import type { ModuleMount } from '../../http/mount';
import { created, noContent } from '../../http/routes';
import { IdParams } from '../../http/dtos';
import { addActivity } from '../../../domain/core/crm/addActivity';
import { getCustomer } from '../../../domain/core/crm/getCustomer';
import { getHealthScore } from '../../../domain/core/crm/healthScore';
import { listTasks } from '../../../domain/core/crm/listTasks';
import { readTimeline } from '../../../domain/core/crm/timeline';
import { deleteActivity, updateActivity } from '../../../domain/core/crm/updateActivity';
import '../../../domain/core/crm/registrations';
import { ActivityBody, TasksQuery, TimelineQuery, UpdateActivityBody } from './dtos';
import { ActivityView, HealthScoreView, TaskPageView, TimelineItemView, TimelinePageView } from './activityViews';
import { crmGate } from './customers';

const date = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : new Date(v));

/** Activities, open follow-ups, the unified timeline and the health score of customers. */
export function activityRoutes({ routes }: ModuleMount): void {
  const r = routes('CRM activities');
  const read = { ...crmGate, permission: 'core.customers.read' } as const;
  const write = { ...crmGate, permission: 'core.customers.write' } as const;

  r.get(
    '/api/customers/tasks',
    {
      ...read,
      summary: 'Open follow-ups across customers',
      description: 'Activities not completed that are tasks or have a due date, soonest due first (undated tasks last). assignee: me (default), anyone or a member id; due: overdue, soon (within `days`), all.',
      query: TasksQuery,
      response: TaskPageView,
    },
    async ({ ctx, query }) => TaskPageView.from(await listTasks(ctx, query)),
  );

  r.patch(
    '/api/customers/activities/:id',
    {
      ...write,
      summary: 'Complete or edit an activity',
      description: '`completed: true` completes it now (completing again keeps the first time), false reopens it. A done activity has happened: one whose occurredAt is in the future (a planned call or meeting made early) is placed at its completion time. Completing a call, e-mail or meeting updates the customer\'s lastContactAt; the health score follows.',
      params: IdParams,
      body: UpdateActivityBody,
      response: ActivityView,
    },
    async ({ ctx, params, body }) => ActivityView.from(await updateActivity(ctx, params.id, { ...body, occurredAt: date(body.occurredAt) ?? undefined, dueAt: date(body.dueAt) })),
  );

  r.delete('/api/customers/activities/:id', { ...write, summary: 'Delete an activity', params: IdParams, status: 204 }, async ({ ctx, params }) => {
    await deleteActivity(ctx, params.id);
    return noContent();
  });

  r.post(
    '/api/customers/:id/activities',
    {
      ...write,
      summary: 'Add a note, call, e-mail, meeting or task',
      description: 'occurredAt places it on the timeline (default: dueAt, else now). Notes and e-mails are done when added, tasks are open, calls and meetings are done unless they have a dueAt (a planned one). One added as done is placed at most at now: a future occurredAt (or dueAt) becomes the time it was added.',
      params: IdParams,
      body: ActivityBody,
      response: ActivityView,
      status: 201,
    },
    async ({ ctx, params, body }) => created(ActivityView.from(await addActivity(ctx, params.id, { ...body, occurredAt: date(body.occurredAt) ?? undefined, dueAt: date(body.dueAt) }))),
  );

  r.get(
    '/api/customers/:id/timeline',
    {
      ...read,
      summary: 'Unified timeline of a customer',
      description:
        'Activities, and the invoices and appointments of their modules, newest first (time, then source, then id), paged with an opaque cursor; optional time range [from, to) and sources filter.',
      params: IdParams,
      query: TimelineQuery,
      response: TimelinePageView,
    },
    async ({ ctx, params, query }) => {
      await getCustomer(ctx, params.id);
      const page = await readTimeline(ctx, params.id, { limit: query.limit, cursor: query.cursor, from: date(query.from) ?? undefined, to: date(query.to) ?? undefined, sources: query.sources });
      return { items: page.items.map(TimelineItemView.from), nextCursor: page.nextCursor } satisfies TimelinePageView;
    },
  );

  r.get(
    '/api/customers/:id/score',
    {
      ...read,
      summary: 'Health score of a customer',
      description:
        'score = round(100 × Σ(weight × value) / Σ(weight)) over the signals that apply, each value from 0 (bad) to 1 (healthy); risk low ≥ 70, medium 40-69, high < 40. Signals: recency (30: 1 up to 14 days since the last call/e-mail/meeting, 0 at 90 days or never), overdue_tasks (20: 1 - 0.25 per overdue follow-up), deal_momentum (15: share of open deals that entered their stage in 30 days; absent without open deals), activity_trend (10: 0.5 + (recent - previous) / (2 max) over two 30-day windows), and those of other modules (unpaid invoices ...). Read from the stored row the worker recomputes on changes and nightly.',
      params: IdParams,
      response: HealthScoreView,
    },
    async ({ ctx, params }) => HealthScoreView.from(await getHealthScore(ctx, params.id)),
  );
}
