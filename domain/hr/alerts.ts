import { HrComplianceAlert, type ComplianceRule } from '../../entities/hr/compliance';
import { notFound } from '../../lib/errors';
import { lean, type Lean } from '../../lib/lean';
import { toPage, type Page } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';

export interface ListAlertsProps {
  employeeId?: string;
  rule?: ComplianceRule;
  acknowledged?: boolean;
  limit: number;
  cursor?: string;
}

// A lean statement (docs/database-path.md): every combination of filters is one prepared statement.
const alertsPage = lean(HrComplianceAlert, {
  where: `($1::uuid is null or employee_id = $1) and ($2::text is null or rule = $2) and ($3::boolean is null or (acknowledged_at is not null) = $3)
    and ($4::uuid is null or id < $4)`,
  orderBy: 'id desc',
  limitParam: '$5',
});

/** Compliance alerts, newest first. */
export async function listComplianceAlerts(ctx: TenantContext, props: ListAlertsProps): Promise<Page<Lean<HrComplianceAlert>>> {
  return toPage(await alertsPage.all(ctx, props.employeeId ?? null, props.rule ?? null, props.acknowledged ?? null, props.cursor ?? null, props.limit + 1), props.limit);
}

/** Acknowledges an alert; acknowledging it again keeps the first acknowledgement. */
export async function acknowledgeAlert(ctx: TenantContext, id: string, note?: string): Promise<HrComplianceAlert> {
  return ctx.em.transactional(async (em) => {
    const alert = await em.findOne(HrComplianceAlert, { id });
    if (!alert) throw notFound('Compliance alert');
    if (!alert.acknowledgedAt) {
      alert.acknowledgedAt = new Date();
      alert.acknowledgedBy = ctx.userId;
      alert.acknowledgeNote = note ?? null;
      audit(em, { action: 'hr.compliance_alert.acknowledged', actorId: ctx.userId, tenantId: ctx.tenantId, targetType: 'hr_compliance_alert', targetId: alert.id });
    }
    return alert;
  });
}
