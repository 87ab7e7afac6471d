import type { ModuleMount } from '../../http/mount';
import { created, noContent } from '../../http/routes';
import { IdParams } from '../../http/dtos';
import { callerAccess, mayUse } from '../../../domain/core/org/access';
import { dashboardSummary } from '../../../domain/core/org/dashboardSummary';
import { createDashboard } from '../../../domain/core/org/createDashboard';
import { MAX_DASHBOARDS } from '../../../domain/core/org/dashboards';
import { deleteDashboard } from '../../../domain/core/org/deleteDashboard';
import { getDashboard } from '../../../domain/core/org/getDashboard';
import { listDashboards } from '../../../domain/core/org/listDashboards';
import { updateDashboard } from '../../../domain/core/org/updateDashboard';
import { widgetCatalogue } from '../../../domain/core/org/widgetCatalogue';
import { addWidget } from '../../../domain/core/org/addWidget';
import { deleteWidget } from '../../../domain/core/org/deleteWidget';
import { setLayout } from '../../../domain/core/org/setLayout';
import { updateWidget } from '../../../domain/core/org/updateWidget';
import { DashboardListView, DashboardView, WidgetCatalogueView, WidgetTypeView } from './dashboardViews';
import { DashboardSummaryView } from './summaryViews';
import {
  AddWidgetBody,
  CreateDashboardBody,
  DashboardLayoutBody,
  UpdateDashboardBody,
  UpdateWidgetBody,
  WidgetParams,
} from './workspaceDtos';
import {
  addWidgetDoc,
  deleteDashboardDoc,
  editWidgetDoc,
  getDashboardDoc,
  homeFiguresOrganisationDoc,
  listDashboardsDoc,
  placeSeveralWidgetsAtDoc,
  updateDashboardDoc,
  widgetTypesDoc,
} from './dashboards.docs';

/** /api/dashboard/summary and /api/dashboards: the home figures and each member's own dashboards of widgets. */
export function dashboardRoutes({ routes }: ModuleMount): void {
  const r = routes('Core: dashboards');
  const gate = { access: 'user', module: 'core' } as const;

  r.get(
    '/api/dashboard/summary',
    {
      ...gate,
      summary: 'Home figures of the organisation',
      description: homeFiguresOrganisationDoc,
      response: DashboardSummaryView,
    },
    async ({ ctx }) => DashboardSummaryView.from(await dashboardSummary(ctx)),
  );

  r.get(
    '/api/dashboards/widget-catalogue',
    {
      ...gate,
      summary: 'The widget types',
      description: widgetTypesDoc,
      response: WidgetCatalogueView,
    },
    async ({ ctx }) => {
      const access = await callerAccess(ctx);
      return {
        items: widgetCatalogue.map((t) => WidgetTypeView.from(t, mayUse(access, t))),
      } satisfies WidgetCatalogueView;
    },
  );

  r.get(
    '/api/dashboards',
    { ...gate, summary: 'My dashboards', description: listDashboardsDoc, response: DashboardListView },
    async ({ ctx }) => ({ items: (await listDashboards(ctx)).map(DashboardView.from) }) satisfies DashboardListView,
  );

  r.post(
    '/api/dashboards',
    {
      ...gate,
      summary: 'Create a dashboard',
      description: `The member's first dashboard is their default. 409 \`dashboard_limit\` past ${MAX_DASHBOARDS}.`,
      body: CreateDashboardBody,
      response: DashboardView,
      status: 201,
      errors: { 409: '`dashboard_limit`' },
    },
    async ({ ctx, body }) => created(DashboardView.from(await createDashboard(ctx, body))),
  );

  r.get(
    '/api/dashboards/:id',
    {
      ...gate,
      summary: 'A dashboard with its widgets',
      description: getDashboardDoc,
      params: IdParams,
      response: DashboardView,
    },
    async ({ ctx, params }) => DashboardView.from(await getDashboard(ctx, params.id)),
  );

  r.patch(
    '/api/dashboards/:id',
    {
      ...gate,
      summary: 'Rename, resize or make default',
      description: updateDashboardDoc,
      params: IdParams,
      body: UpdateDashboardBody,
      response: DashboardView,
      errors: { 409: '`default_dashboard_required`' },
    },
    async ({ ctx, params, body }) => DashboardView.from(await updateDashboard(ctx, params.id, body)),
  );

  r.delete(
    '/api/dashboards/:id',
    { ...gate, summary: 'Delete a dashboard', description: deleteDashboardDoc, params: IdParams, status: 204 },
    async ({ ctx, params }) => {
      await deleteDashboard(ctx, params.id);
      return noContent();
    },
  );

  r.put(
    '/api/dashboards/:id/layout',
    {
      ...gate,
      summary: 'Place several widgets at once',
      description: placeSeveralWidgetsAtDoc,
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
      description: addWidgetDoc,
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
    {
      ...gate,
      summary: 'Edit a widget',
      description: editWidgetDoc,
      params: WidgetParams,
      body: UpdateWidgetBody,
      response: DashboardView,
      errors: { 403: '`widget_not_available`' },
    },
    async ({ ctx, params, body }) => DashboardView.from(await updateWidget(ctx, params.id, params.widgetId, body)),
  );

  r.delete(
    '/api/dashboards/:id/widgets/:widgetId',
    { ...gate, summary: 'Remove a widget', params: WidgetParams, status: 204 },
    async ({ ctx, params }) => {
      await deleteWidget(ctx, params.id, params.widgetId);
      return noContent();
    },
  );
}
