import type { ModuleMount } from '../http/mount';
import { overviewReport } from '../../domain/vr/overviewReport';
import { sessionReports } from '../../domain/vr/sessionReports';
import { VrOverviewQuery, VrSessionFiltersQuery } from './dtos';
import { dateFilters } from './filters';
import { VrOverviewView, VrSessionReportPageView } from './reportViews';

/** Completion reports (vr.reports.read), computed from the aggregates the telemetry worker maintains. */
export function reportRoutes({ routes }: ModuleMount): void {
  const r = routes('VR reports');
  const gate = { access: 'user', module: 'vr', permission: 'vr.reports.read' } as const;
  const definitions = `A participant is a user who joined the run or appears in its telemetry. Progress = distinct steps passed /
simulationSteps (at most 1). A participant completed on \`simulation_completed\` or once every step is passed.
Completion rate = completed participants / participants. Figures follow telemetry within seconds, also while a run goes on
(the duration of a running session counts up to now).`;

  r.get(
    '/reports/sessions',
    {
      ...gate,
      summary: 'Session reports',
      description: `Per session, newest first: completion rate, duration and progress per participant. Filters: roomId, simulation, start time range [from, to).\n\n${definitions}`,
      query: VrSessionFiltersQuery,
      response: VrSessionReportPageView,
    },
    async ({ ctx, query }) => VrSessionReportPageView.from(await sessionReports(ctx, { ...query, ...dateFilters(query) })),
  );

  r.get(
    '/reports/overview',
    {
      ...gate,
      summary: 'Aggregated reports',
      description: `Totals, per simulation and per room: runs (and how many still run), participants, completion rate, average progress, average duration of the ended runs, events. Filters: roomId, simulation, start time range [from, to).\n\n${definitions}`,
      query: VrOverviewQuery,
      response: VrOverviewView,
    },
    async ({ ctx, query }) => VrOverviewView.from(await overviewReport(ctx, { ...query, ...dateFilters(query) })),
  );
}
