import type { Services } from '../services';
import { audit } from '../platform/audit';
import { markDepartedEmployees } from './store/employees';

/**
 * Employees whose last day (`endDate`, a local date) has passed in their own time zone become `left`, each with
 * an audit entry (actor null: the clock), in one transaction. Crosses tenants on purpose (the clock's system
 * work), through the partial index of active employees with a last day. A zone PostgreSQL does not know (a row
 * stored before zones were checked against it) is read as UTC: `at time zone` would otherwise fail the whole
 * statement, every organisation's departures with it, every hour. Returns how many left.
 */
export async function recordDepartures(services: Services): Promise<{ left: number }> {
  return services.orm.em.fork().transactional(async (em) => {
    const gone = await markDepartedEmployees(em);
    for (const e of gone)
      audit(em, {
        action: 'hr.employee.left',
        tenantId: e.tenant_id,
        targetType: 'hr_employee',
        targetId: e.id,
        data: { endDate: e.end_date },
      });
    return { left: gone.length };
  });
}
