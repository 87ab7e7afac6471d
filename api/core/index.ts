import type { ModuleMount } from '../http/mount';
import { bookingApi } from './booking';
import { crmApi } from './crm';
import { hubKeyRoutes } from './hubKeys';
import { invoicingApi } from './invoices';
import { orgApi } from './org';

/** Core business: the integration hub's API keys, invoicing, the organisation's records, the CRM and booking. */
export function coreApi(mount: ModuleMount): void {
  hubKeyRoutes(mount);
  invoicingApi(mount);
  orgApi(mount);
  crmApi(mount);
  bookingApi(mount);
}
