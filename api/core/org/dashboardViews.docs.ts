import { prose } from '../../http/docs';

export const widgetViewAvailableDoc = prose`
  Whether the widget can be shown now: its module in use by the organisation and its permission held by the caller (as
  \`available\` in the widget catalogue). false: the app shows a placeholder saying why instead of reading the data
  route; the widget keeps its place and settings, can be moved or removed, and is available again once the module is
  switched back on or the permission given back.
`;

export const widgetViewUnavailableReasonDoc = prose`
  Why it is not available: module_not_in_use (switched off in the active modules, or no longer in the subscription),
  permission_missing (the caller no longer holds its permission), type_unknown (no longer in the catalogue); null when
  available
`;

export const widgetTypeViewDataRouteDoc = prose`
  GET route the widget reads its data from, with the caller's token (a path parameter is the widget's required setting,
  e.g. {id}: settings.pipelineId)
`;

export const widgetTypeViewRequiredSettingsDoc = prose`
  The settings the type needs, each the id of a record of the organisation (e.g. pipelineId); it takes no others
`;
