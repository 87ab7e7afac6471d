import type { Services } from '../services';

/** Organisations that have HR employees: the ones the clock's HR jobs fan out to (crosses tenants on purpose). */
export async function hrTenants(services: Services): Promise<string[]> {
  const rows = await services.orm.em.fork().execute<{ tenant_id: string }[]>('select distinct tenant_id from hr_employees');
  return rows.map((r) => r.tenant_id);
}
