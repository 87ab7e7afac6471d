import { prose } from '../../http/docs';
import { MAX_DASHBOARDS } from '../../../domain/core/org/dashboards';
import { MAX_WIDGETS } from '../../../domain/core/org/widgets';

export const homeFiguresOrganisationDoc = prose`
  Today's appointments, open follow-ups, unpaid invoices, open deals per pipeline stage, storage use and VR sessions
  this week, in one statement: each figure an aggregate subquery on an index (never a loop over rows); days and weeks
  (from Monday) are the business time zone's. A figure whose module the organisation does not use, or whose permission
  the caller lacks, is null (the module and permission of each are in the schema).
`;

export const widgetTypesDoc = prose`
  Every widget type with the GET route its data comes from (called by the app with the member's token, so the route's
  own checks apply), the field of that answer it shows, its default size, and whether the caller may add it now (module
  in use, permission held).
`;

export const placeSeveralWidgetsAtDoc = prose`
  After a drag and drop: the new place of each widget named (others stay). All or nothing: a widget not on this
  dashboard is 404, a place past the grid's columns 400.
`;

export const editWidgetDoc = prose`
  Title, place, settings (replaced, checked against the type as when adding: 400 for a setting the type does not take or
  one naming no record of the organisation). New settings for a widget not available now are 403
  \`widget_not_available\`; its title and place can still change. Answers the dashboard.
`;

const unavailableDoc = prose`
  A widget whose module the organisation no longer uses (switched off in its active modules, or gone from its
  subscription) or whose permission the caller lost stays on the dashboard in its place, flagged \`available: false\`
  with an \`unavailableReason\`: the app shows a placeholder there instead of reading its data, the member may move or
  remove it, and it is available again, where it was, once the module is back on or the permission given back.
`;

const oneDefaultDoc = prose`
  A member with dashboards always has exactly one default.
`;

export const listDashboardsDoc = prose`
  The caller's own dashboards with their widgets, the default first, then oldest first (at most ${MAX_DASHBOARDS}).
  Dashboards are personal: nobody else sees them. ${oneDefaultDoc} ${unavailableDoc}
`;

export const getDashboardDoc = prose`
  Another member's dashboard is 404 like an unknown one. ${unavailableDoc}
`;

export const updateDashboardDoc = prose`
  Making it the default clears the flag on the member's other dashboards. ${oneDefaultDoc} To change it, make another
  dashboard the default: \`isDefault: false\` on the default is 409 \`default_dashboard_required\` (nothing of the
  request is applied), on another dashboard it changes nothing. Narrowing the grid while a widget would not fit is 400.
`;

export const deleteDashboardDoc = prose`
  With its widgets. ${oneDefaultDoc} Deleting the default makes the first remaining dashboard of the list (the oldest)
  the default, so the list keeps its order; deleting the last one leaves none, and the next one created is the default.
`;

export const addWidgetDoc = prose`
  A type of the catalogue; without a place it goes below the others at the type's default size. 403
  \`widget_not_available\` when the organisation does not use its module or the caller lacks its permission; 400 for a
  required setting missing, a setting the type does not take, a setting naming no record of the organisation
  (\`settings.pipelineId\`: an unknown pipeline or another organisation's) or a place past the grid; 409
  \`widget_limit\` past ${MAX_WIDGETS}. Answers the dashboard.
`;
