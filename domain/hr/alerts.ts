import type { FilterQuery } from '@mikro-orm/core';
import { HrComplianceAlert, type ComplianceRule } from '../../entities/hr/compliance';
import { notFound } from '../../lib/errors';
import { cursorWhere, toPage, type Page } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { audit } from '../identity/audit';

export interface ListAlertsProps {
  employeeId?: string;
  rule?: ComplianceRule;
  acknowledged?: boolean;
  limit: number;
  cursor?: string;
}

/** Compliance alerts, newest first. */
export async function listComplianceAlerts(ctx: TenantContext, props: ListAlertsProps): Promise<Page<HrComplianceAlert>> {
  const where: FilterQuery<HrComplianceAlert> = { ...cursorWhere(props.cursor, 'desc') };
  if (props.employeeId) where.employeeId = props.employeeId;
  if (props.rule) where.rule = props.rule;
  if (props.acknowledged !== undefined) where.acknowledgedAt = props.acknowledged ? { $ne: null } : null;
  return toPage(await ctx.em.find(HrComplianceAlert, where, { orderBy: { id: 'desc' }, limit: props.limit + 1 }), props.limit);
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
