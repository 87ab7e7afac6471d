import type { Gated } from './access';

/** The settings a widget type may take, each naming a record of the organisation (checkWidgetSettings.ts finds it). */
export type WidgetSetting = 'pipelineId';

/** The most a widget's settings may take, as JSON text. */
export const SETTINGS_MAX_CHARS = 2000;

export interface WidgetType extends Gated {
  type: string;
  title: string;
  description: string;
  /** The route the widget reads its data from (GET, with the caller's token). */
  dataRoute: string;
  /** The field of that route's answer the widget shows; null: the whole answer. */
  dataField: string | null;
  /** Settings the type needs (each a string naming a record of the organisation); it takes no others. */
  requiredSettings: WidgetSetting[];
  defaultW: number;
  defaultH: number;
}

/** Every widget type: where its data comes from, what the organisation and the caller need to use it. */
export const widgetCatalogue: readonly WidgetType[] = [
  {
    type: 'appointments_today',
    title: "Today's appointments",
    description: 'Appointments of today in the business time zone.',
    dataRoute: '/api/dashboard/summary',
    dataField: 'appointmentsToday',
    requiredSettings: [],
    defaultW: 4,
    defaultH: 2,
    module: 'core',
    permission: null,
  },
  {
    type: 'appointments_upcoming',
    title: 'Upcoming appointments',
    description: 'The next appointments, in start order.',
    dataRoute: '/api/appointments',
    dataField: 'items',
    requiredSettings: [],
    defaultW: 6,
    defaultH: 4,
    module: 'core',
    permission: null,
  },
  {
    type: 'open_tasks',
    title: 'Open follow-ups',
    description: 'Open, overdue and due-today tasks.',
    dataRoute: '/api/dashboard/summary',
    dataField: 'openTasks',
    requiredSettings: [],
    defaultW: 4,
    defaultH: 2,
    module: 'core',
    permission: 'core.customers.read',
  },
  {
    type: 'task_list',
    title: 'My follow-ups',
    description: 'Open follow-ups across contacts, due first.',
    dataRoute: '/api/customers/tasks',
    dataField: 'items',
    requiredSettings: [],
    defaultW: 6,
    defaultH: 4,
    module: 'core',
    permission: 'core.customers.read',
  },
  {
    type: 'unpaid_invoices',
    title: 'Unpaid invoices',
    description: 'Count, overdue count and amount due per currency.',
    dataRoute: '/api/dashboard/summary',
    dataField: 'unpaidInvoices',
    requiredSettings: [],
    defaultW: 4,
    defaultH: 2,
    module: 'core',
    permission: 'core.invoices.read',
  },
  {
    type: 'deals_by_stage',
    title: 'Deals by stage',
    description: 'Open deals and their amount per pipeline stage.',
    dataRoute: '/api/dashboard/summary',
    dataField: 'dealsByStage',
    requiredSettings: [],
    defaultW: 8,
    defaultH: 4,
    module: 'core',
    permission: 'core.customers.read',
  },
  {
    type: 'pipeline_board',
    title: 'Pipeline board',
    description: 'One pipeline with its weighted forecast ({id}: settings.pipelineId).',
    dataRoute: '/api/pipelines/{id}/board',
    dataField: null,
    requiredSettings: ['pipelineId'],
    defaultW: 12,
    defaultH: 6,
    module: 'core',
    permission: 'core.customers.read',
  },
  {
    type: 'onboarding',
    title: 'Getting started',
    description: 'The onboarding checklist.',
    dataRoute: '/api/onboarding',
    dataField: null,
    requiredSettings: [],
    defaultW: 4,
    defaultH: 4,
    module: 'core',
    permission: null,
  },
  {
    type: 'storage',
    title: 'Storage',
    description: 'Used and available storage of the organisation.',
    dataRoute: '/api/cloud/quota',
    dataField: null,
    requiredSettings: [],
    defaultW: 4,
    defaultH: 2,
    module: 'cloud',
    permission: 'cloud.read',
  },
  {
    type: 'vr_sessions_week',
    title: 'VR sessions this week',
    description: 'Sessions started this week, running ones and participants.',
    dataRoute: '/api/dashboard/summary',
    dataField: 'vrSessionsThisWeek',
    requiredSettings: [],
    defaultW: 4,
    defaultH: 2,
    module: 'vr',
    permission: 'vr.reports.read',
  },
  {
    type: 'vr_overview',
    title: 'VR training overview',
    description: 'Runs, completion and progress per simulation.',
    dataRoute: '/reports/overview',
    dataField: null,
    requiredSettings: [],
    defaultW: 8,
    defaultH: 4,
    module: 'vr',
    permission: 'vr.reports.read',
  },
];

export const widgetTypes = widgetCatalogue.map((w) => w.type);
export const widgetTypeOf = (type: string) => widgetCatalogue.find((w) => w.type === type);
