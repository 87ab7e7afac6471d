import type { Services } from '../services';
import { tenantsWithEmployees } from './store/employees';

/** Organisations that have HR employees: the ones the clock's HR jobs fan out to (crosses tenants on purpose). */
export const hrTenants = (services: Services): Promise<string[]> => tenantsWithEmployees(services.orm.em.fork());
