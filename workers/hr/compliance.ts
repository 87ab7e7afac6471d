import { tenantContext } from '../../domain/context';
import { scanCompliance } from '../../domain/hr/scanCompliance';
import { hrTenants } from '../../domain/hr/tenants';
import { HrEmployee } from '../../entities/hr/employee';
import { complianceQueue } from '../../queues/hr';
import { defineProcessor } from '../define';

/** Employees scanned by one job. */
export const COMPLIANCE_BATCH = 250;

/** Compliance scans: the clock's job fans out per organisation, an organisation's per batch of employees. */
export const complianceProcessor = defineProcessor(complianceQueue, {
  async perform(payload, { services, job }) {
    const { from, to, tenantId, employeeIds } = payload;
    if (!tenantId) {
      const tenants = await hrTenants(services);
      await services.queues.addBulk(complianceQueue, tenants.map((t) => ({ payload: { from, to, tenantId: t }, options: { jobId: `${job.id}-${t}` } })));
      return { tenants: tenants.length };
    }
    const ctx = tenantContext(services, tenantId);
    if (!employeeIds) {
      const ids = (await ctx.em.find(HrEmployee, { status: 'active' }, { fields: ['id'], orderBy: { id: 'asc' } })).map((e) => e.id);
      const batches = [];
      for (let i = 0; i < ids.length; i += COMPLIANCE_BATCH) batches.push(ids.slice(i, i + COMPLIANCE_BATCH));
      await services.queues.addBulk(complianceQueue, batches.map((batch, n) => ({ payload: { from, to, tenantId, employeeIds: batch }, options: { jobId: `${job.id}-${n}` } })));
      return { batches: batches.length };
    }
    return scanCompliance(ctx, { employeeIds, from, to });
  },
});
