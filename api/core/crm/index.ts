import type { ModuleMount } from '../../http/mount';
import { activityRoutes } from './activities';
import { customFieldRoutes } from './fields';
import { customerRoutes } from './customers';
import { dealRoutes } from './deals';
import { duplicateRoutes } from './duplicates';
import { exportRoutes } from './exportRoute';
import { hubRoutes } from './hub';
import { crmInternalRoutes } from './internal';
import { pipelineRoutes } from './pipelines';
import { savedViewRoutes } from './savedViews';
import { sheetImportRoutes } from './sheetImports';

/** The CRM of the core service. Static /api/customers/... paths come before /api/customers/:id. */
export function crmApi(mount: ModuleMount): void {
  customFieldRoutes(mount);
  activityRoutes(mount);
  crmInternalRoutes(mount);
  sheetImportRoutes(mount);
  savedViewRoutes(mount);
  duplicateRoutes(mount);
  customerRoutes(mount);
  pipelineRoutes(mount);
  dealRoutes(mount);
  hubRoutes(mount);
  exportRoutes(mount);
}
