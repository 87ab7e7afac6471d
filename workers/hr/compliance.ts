import { tenantContext } from '../../domain/context';
import { scanCompliance } from '../../domain/hr/scanCompliance';
import { hrTenants } from '../../domain/hr/tenants';
import { HrEmployee } from '../../entities/hr/employee';
import { complianceQueue } from '../../queues/hr';
import { defineProcessor } from '../define';

/** Employees scanned by one job. */
export const COMPLIANCE_BATCH = 250;

/**
 * Compliance scans: the clock's job fans out per organisation, an organisation's per batch of the employees
 * employed during the range (active or left since).
 */
export const complianceProcessor = defineProcessor(complianceQueue, {
  async perform(payload, { services, job }) {
    const { from, to, tenantId, employeeIds } = payload;
    if (!tenantId) {
      const tenants = await hrTenants(services);
      await services.queues.addBulk(
        complianceQueue,
        tenants.map((t) => ({ payload: { from, to, tenantId: t }, options: { jobId: `${job.id}-${t}` } })),
      );
      return { tenants: tenants.length };
    }
    const ctx = tenantContext(services, tenantId);
    if (!employeeIds) {
      // Every employee employed during some day of from..to (hired by `to`, last day not before `from`): also
      // those who have left since, whose last days are scanned like anyone's.
      const employed = {
        $and: [
          { $or: [{ hireDate: null }, { hireDate: { $lte: to } }] },
          { $or: [{ endDate: null }, { endDate: { $gte: from } }] },
        ],
      };
      const ids = (await ctx.em.find(HrEmployee, employed, { fields: ['id'], orderBy: { id: 'asc' } })).map(
        (e) => e.id,
      );
      const batches = [];
      for (let i = 0; i < ids.length; i += COMPLIANCE_BATCH) batches.push(ids.slice(i, i + COMPLIANCE_BATCH));
      await services.queues.addBulk(
        complianceQueue,
        batches.map((batch, n) => ({
          payload: { from, to, tenantId, employeeIds: batch },
          options: { jobId: `${job.id}-${n}` },
        })),
      );
      return { batches: batches.length };
    }
    return scanCompliance(ctx, { employeeIds, from, to });
  },
});
