import type { ModuleMount } from '../http/mount';
import { overviewReport } from '../../domain/vr/overviewReport';
import { sessionReports } from '../../domain/vr/sessionReports';
import { VrOverviewQuery, VrSessionFiltersQuery } from './dtos';
import { dateFilters } from './filters';
import { VrOverviewView, VrSessionReportPageView } from './reportViews';
import { getReportsOverview, getReportsSessions } from './reports.docs';

/** Completion reports (vr.reports.read), computed from the aggregates the telemetry worker maintains. */
export function reportRoutes({ routes }: ModuleMount): void {
  const r = routes('VR reports');
  const gate = { access: 'user', module: 'vr', permission: 'vr.reports.read' } as const;

  r.get(
    '/reports/sessions',
    {
      ...gate,
      summary: 'Session reports',
      description: getReportsSessions,
      query: VrSessionFiltersQuery,
      response: VrSessionReportPageView,
    },
    async ({ ctx, query }) =>
      VrSessionReportPageView.from(await sessionReports(ctx, { ...query, ...dateFilters(query) })),
  );

  r.get(
    '/reports/overview',
    {
      ...gate,
      summary: 'Aggregated reports',
      description: getReportsOverview,
      query: VrOverviewQuery,
      response: VrOverviewView,
    },
    async ({ ctx, query }) => VrOverviewView.from(await overviewReport(ctx, { ...query, ...dateFilters(query) })),
  );
}
