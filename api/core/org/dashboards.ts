import type { ModuleMount } from '../../http/mount';
import { created, noContent } from '../../http/routes';
import { IdParams } from '../../http/dtos';
import { callerAccess, mayUse } from '../../../domain/core/org/access';
import { dashboardSummary } from '../../../domain/core/org/dashboardSummary';
import { createDashboard, deleteDashboard, getDashboard, listDashboards, MAX_DASHBOARDS, updateDashboard } from '../../../domain/core/org/dashboards';
import { widgetCatalogue } from '../../../domain/core/org/widgetCatalogue';
import { addWidget, deleteWidget, MAX_WIDGETS, setLayout, updateWidget } from '../../../domain/core/org/widgets';
import { DashboardListView, DashboardView, WidgetCatalogueView, WidgetTypeView } from './dashboardViews';
import { DashboardSummaryView } from './summaryViews';
import { AddWidgetBody, CreateDashboardBody, DashboardLayoutBody, UpdateDashboardBody, UpdateWidgetBody, WidgetParams } from './workspaceDtos';

/** /api/dashboard/summary and /api/dashboards: the home figures and each member's own dashboards of widgets. */
export function dashboardRoutes({ routes }: ModuleMount): void {
  const r = routes('Core: dashboards');
  const gate = { access: 'user', module: 'core' } as const;
  const unavailable =
    'A widget whose module the organisation no longer uses (switched off in its active modules, or gone from its subscription) or whose permission the caller lost stays on the dashboard in its place, flagged `available: false` with an `unavailableReason`: the app shows a placeholder there instead of reading its data, the member may move or remove it, and it is available again, where it was, once the module is back on or the permission given back.';
  const oneDefault = 'A member with dashboards always has exactly one default.';

  r.get(
    '/api/dashboard/summary',
    {
      ...gate,
      summary: 'Home figures of the organisation',
      description:
        "Today's appointments, open follow-ups, unpaid invoices, open deals per pipeline stage, storage use and VR sessions this week, in one statement: each figure an aggregate subquery on an index (never a loop over rows); days and weeks (from Monday) are the business time zone's. A figure whose module the organisation does not use, or whose permission the caller lacks, is null (the module and permission of each are in the schema).",
      response: DashboardSummaryView,
    },
    async ({ ctx }) => DashboardSummaryView.from(await dashboardSummary(ctx)),
  );

  r.get(
    '/api/dashboards/widget-catalogue',
    {
      ...gate,
      summary: 'The widget types',
      description: "Every widget type with the GET route its data comes from (called by the app with the member's token, so the route's own checks apply), the field of that answer it shows, its default size, and whether the caller may add it now (module in use, permission held).",
      response: WidgetCatalogueView,
    },
    async ({ ctx }) => {
      const access = await callerAccess(ctx);
      return { items: widgetCatalogue.map((t) => WidgetTypeView.from(t, mayUse(access, t))) } satisfies WidgetCatalogueView;
    },
  );

  r.get(
    '/api/dashboards',
    { ...gate, summary: 'My dashboards', description: `The caller's own dashboards with their widgets, the default first, then oldest first (at most ${MAX_DASHBOARDS}). Dashboards are personal: nobody else sees them. ${oneDefault} ${unavailable}`, response: DashboardListView },
    async ({ ctx }) => ({ items: (await listDashboards(ctx)).map(DashboardView.from) }) satisfies DashboardListView,
  );

  r.post(
    '/api/dashboards',
    { ...gate, summary: 'Create a dashboard', description: `The member's first dashboard is their default. 409 \`dashboard_limit\` past ${MAX_DASHBOARDS}.`, body: CreateDashboardBody, response: DashboardView, status: 201, errors: { 409: '`dashboard_limit`' } },
    async ({ ctx, body }) => created(DashboardView.from(await createDashboard(ctx, body))),
  );

  r.get('/api/dashboards/:id', { ...gate, summary: 'A dashboard with its widgets', description: `Another member's dashboard is 404 like an unknown one. ${unavailable}`, params: IdParams, response: DashboardView }, async ({ ctx, params }) =>
    DashboardView.from(await getDashboard(ctx, params.id)),
  );

  r.patch(
    '/api/dashboards/:id',
    {
      ...gate,
      summary: 'Rename, resize or make default',
      description: `Making it the default clears the flag on the member's other dashboards. ${oneDefault} To change it, make another dashboard the default: \`isDefault: false\` on the default is 409 \`default_dashboard_required\` (nothing of the request is applied), on another dashboard it changes nothing. Narrowing the grid while a widget would not fit is 400.`,
      params: IdParams,
      body: UpdateDashboardBody,
      response: DashboardView,
      errors: { 409: '`default_dashboard_required`' },
    },
    async ({ ctx, params, body }) => DashboardView.from(await updateDashboard(ctx, params.id, body)),
  );

  r.delete('/api/dashboards/:id', { ...gate, summary: 'Delete a dashboard', description: `With its widgets. ${oneDefault} Deleting the default makes the first remaining dashboard of the list (the oldest) the default, so the list keeps its order; deleting the last one leaves none, and the next one created is the default.`, params: IdParams, status: 204 }, async ({ ctx, params }) => {
    await deleteDashboard(ctx, params.id);
    return noContent();
  });

  r.put(
    '/api/dashboards/:id/layout',
    {
      ...gate,
      summary: 'Place several widgets at once',
      description: 'After a drag and drop: the new place of each widget named (others stay). All or nothing: a widget not on this dashboard is 404, a place past the grid\'s columns 400.',
      params: IdParams,
      body: DashboardLayoutBody,
      response: DashboardView,
    },
    async ({ ctx, params, body }) => DashboardView.from(await setLayout(ctx, params.id, body.widgets)),
  );

  r.post(
    '/api/dashboards/:id/widgets',
    {
      ...gate,
      summary: 'Add a widget',
      description: `A type of the catalogue; without a place it goes below the others at the type's default size. 403 \`widget_not_available\` when the organisation does not use its module or the caller lacks its permission; 400 for a required setting missing, a setting the type does not take, a setting naming no record of the organisation (\`settings.pipelineId\`: an unknown pipeline or another organisation's) or a place past the grid; 409 \`widget_limit\` past ${MAX_WIDGETS}. Answers the dashboard.`,
      params: IdParams,
      body: AddWidgetBody,
      response: DashboardView,
      status: 201,
      errors: { 403: '`widget_not_available`', 409: '`widget_limit`' },
    },
    async ({ ctx, params, body }) => created(DashboardView.from(await addWidget(ctx, params.id, body))),
  );

  r.patch(
    '/api/dashboards/:id/widgets/:widgetId',
    { ...gate, summary: 'Edit a widget', description: 'Title, place, settings (replaced, checked against the type as when adding: 400 for a setting the type does not take or one naming no record of the organisation). New settings for a widget not available now are 403 `widget_not_available`; its title and place can still change. Answers the dashboard.', params: WidgetParams, body: UpdateWidgetBody, response: DashboardView, errors: { 403: '`widget_not_available`' } },
    async ({ ctx, params, body }) => DashboardView.from(await updateWidget(ctx, params.id, params.widgetId, body)),
  );

  r.delete('/api/dashboards/:id/widgets/:widgetId', { ...gate, summary: 'Remove a widget', params: WidgetParams, status: 204 }, async ({ ctx, params }) => {
    await deleteWidget(ctx, params.id, params.widgetId);
    return noContent();
  });
}
