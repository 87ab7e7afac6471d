import type { ModuleMount } from '../../http/mount';
import { created, noContent } from '../../http/routes';
import { IdParams } from '../../http/dtos';
import { addActivity } from '../../../domain/core/crm/addActivity';
import { getCustomer } from '../../../domain/core/crm/getCustomer';
import { getHealthScore } from '../../../domain/core/crm/healthScore';
import { listTasks } from '../../../domain/core/crm/listTasks';
import { readTimeline } from '../../../domain/core/crm/timeline';
import { deleteActivity } from '../../../domain/core/crm/deleteActivity';
import { updateActivity } from '../../../domain/core/crm/updateActivity';
import '../../../domain/core/crm/registrations';
import { ActivityBody, TasksQuery, TimelineQuery, UpdateActivityBody } from './dtos';
import { ActivityView, HealthScoreView, TaskPageView, TimelineItemView, TimelinePageView } from './activityViews';
import { crmGate } from './customers';
import {
  openFollowUpsAcrossDoc,
  completeEditActivityDoc,
  addNoteCallEDoc,
  unifiedTimelineCustomerDoc,
  healthScoreCustomerDoc,
} from './activities.docs';

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
      description: openFollowUpsAcrossDoc,
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
      description: completeEditActivityDoc,
      params: IdParams,
      body: UpdateActivityBody,
      response: ActivityView,
    },
    async ({ ctx, params, body }) =>
      ActivityView.from(
        await updateActivity(ctx, params.id, {
          ...body,
          occurredAt: date(body.occurredAt) ?? undefined,
          dueAt: date(body.dueAt),
        }),
      ),
  );

  r.delete(
    '/api/customers/activities/:id',
    { ...write, summary: 'Delete an activity', params: IdParams, status: 204 },
    async ({ ctx, params }) => {
      await deleteActivity(ctx, params.id);
      return noContent();
    },
  );

  r.post(
    '/api/customers/:id/activities',
    {
      ...write,
      summary: 'Add a note, call, e-mail, meeting or task',
      description: addNoteCallEDoc,
      params: IdParams,
      body: ActivityBody,
      response: ActivityView,
      status: 201,
    },
    async ({ ctx, params, body }) =>
      created(
        ActivityView.from(
          await addActivity(ctx, params.id, {
            ...body,
            occurredAt: date(body.occurredAt) ?? undefined,
            dueAt: date(body.dueAt),
          }),
        ),
      ),
  );

  r.get(
    '/api/customers/:id/timeline',
    {
      ...read,
      summary: 'Unified timeline of a customer',
      description: unifiedTimelineCustomerDoc,
      params: IdParams,
      query: TimelineQuery,
      response: TimelinePageView,
    },
    async ({ ctx, params, query }) => {
      await getCustomer(ctx, params.id);
      const page = await readTimeline(ctx, params.id, {
        limit: query.limit,
        cursor: query.cursor,
        from: date(query.from) ?? undefined,
        to: date(query.to) ?? undefined,
        sources: query.sources,
      });
      return { items: page.items.map(TimelineItemView.from), nextCursor: page.nextCursor } satisfies TimelinePageView;
    },
  );

  r.get(
    '/api/customers/:id/score',
    {
      ...read,
      summary: 'Health score of a customer',
      description: healthScoreCustomerDoc,
      params: IdParams,
      response: HealthScoreView,
    },
    async ({ ctx, params }) => HealthScoreView.from(await getHealthScore(ctx, params.id)),
  );
}
