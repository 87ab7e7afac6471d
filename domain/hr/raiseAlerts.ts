import type { TenantContext } from '../context';
import { notify } from '../notifications/notify';
import { insertAlerts, type NewAlert } from './store/compliance';

/** Records compliance alerts (each once while it stands) and tells the hub about the new ones; how many were new. */
export async function raiseAlerts(ctx: TenantContext, found: NewAlert[]): Promise<number> {
  if (!found.length) return 0;
  const raised = await insertAlerts(ctx.em, ctx.tenantId, found);
  await notify(
    ctx.services,
    'rh',
    raised.map((a) => ({
      event: 'compliance.alert_raised' as const,
      tenantId: ctx.tenantId,
      subject: { employeeId: a.employee_id, alertId: a.id },
      data: {
        rule: a.rule,
        periodKey: a.period_key,
        measuredMinutes: a.measured_minutes,
        limitMinutes: a.limit_minutes,
      },
    })),
  );
  return raised.length;
}
