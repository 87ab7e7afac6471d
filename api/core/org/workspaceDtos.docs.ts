import { prose } from '../../http/docs';
import { SETTINGS_MAX_CHARS } from '../../../domain/core/org/widgetCatalogue';

export const updateDashboardBodyIsDefaultDoc = prose`
  true: make it the default; false on the default is refused (409 default_dashboard_required): make another one the
  default instead
`;

export const widgetSettingsDoc = prose`
  Settings of the type, only those it takes (requiredSettings of the catalogue, e.g. { "pipelineId": "…" } for
  pipeline_board: a pipeline of the organisation); at most ${SETTINGS_MAX_CHARS} characters as JSON
`;
