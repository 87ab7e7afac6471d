import { HrComplianceAlert } from '../../entities/hr/compliance';
import { notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';

/** Acknowledges an alert; acknowledging it again keeps the first acknowledgement. */
export async function acknowledgeAlert(ctx: TenantContext, id: string, note?: string): Promise<HrComplianceAlert> {
  return ctx.em.transactional(async (em) => {
    const alert = await em.findOne(HrComplianceAlert, { id });
    if (!alert) throw notFound('Compliance alert');
    if (!alert.acknowledgedAt) {
      alert.acknowledgedAt = new Date();
      alert.acknowledgedBy = ctx.userId;
      alert.acknowledgeNote = note ?? null;
      audit(em, {
        action: 'hr.compliance_alert.acknowledged',
        actorId: ctx.userId,
        tenantId: ctx.tenantId,
        targetType: 'hr_compliance_alert',
        targetId: alert.id,
      });
    }
    return alert;
  });
}
