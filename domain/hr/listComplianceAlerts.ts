import type { ComplianceRule, HrComplianceAlert } from '../../entities/hr/compliance';
import type { Lean } from '../../lib/lean';
import { toPage, type Page } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { alertsPage } from './store/compliance';

export interface ListAlertsProps {
  employeeId?: string;
  rule?: ComplianceRule;
  acknowledged?: boolean;
  resolved?: boolean;
  limit: number;
  cursor?: string;
}

/** Compliance alerts, newest first. */
export async function listComplianceAlerts(
  ctx: TenantContext,
  props: ListAlertsProps,
): Promise<Page<Lean<HrComplianceAlert>>> {
  return toPage(
    await alertsPage.all(
      ctx,
      props.employeeId ?? null,
      props.rule ?? null,
      props.acknowledged ?? null,
      props.resolved ?? null,
      props.cursor ?? null,
      props.limit + 1,
    ),
    props.limit,
  );
}
