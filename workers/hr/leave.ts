import { tenantContext } from '../../domain/context';
import { accrueLeave } from '../../domain/hr/accrueLeave';
import { closeWeek } from '../../domain/hr/closeWeeks';
import { generateRtt } from '../../domain/hr/generateRtt';
import { hrTenants } from '../../domain/hr/tenants';
import { hrLeaveQueue } from '../../queues/hr';
import { defineProcessor } from '../define';

/** Monthly accrual and RTT generation, and the closing of a week's time counters: the clock's job fans out per organisation, which credits its employees. */
export const hrLeaveProcessor = defineProcessor(hrLeaveQueue, {
  async perform({ task, period, tenantId }, { services }) {
    if (!tenantId) {
      const tenants = await hrTenants(services);
      await services.queues.addBulk(
        hrLeaveQueue,
        tenants.map((t) => ({ payload: { task, period, tenantId: t }, options: { jobId: `${task}-${t}-${period}` } })),
      );
      return { tenants: tenants.length };
    }
    const ctx = tenantContext(services, tenantId);
    if (task === 'week') return { counters: await closeWeek(ctx, period) };
    return { movements: task === 'accrual' ? await accrueLeave(ctx, period) : await generateRtt(ctx, period) };
  },
});
