import type { EReportKind, EReportState } from '../../../../entities/core/ereport';
import { toPage } from '../../../../lib/pagination';
import type { TenantContext } from '../../../context';
import { reportsPage } from './store';

export interface ListEReportsProps {
  kind?: EReportKind;
  state?: EReportState;
  /** Reports of periods ending on or after this day. */
  periodFrom?: string;
  /** Reports of periods starting on or before this day. */
  periodTo?: string;
  limit: number;
  cursor?: string;
}

/** The organisation's e-reports, newest first, with their filters (their lines are read one report at a time). */
export async function listEReports(ctx: TenantContext, props: ListEReportsProps) {
  return toPage(
    await reportsPage.all(
      ctx,
      props.kind ?? null,
      props.periodFrom ?? null,
      props.periodTo ?? null,
      props.state ?? null,
      props.cursor ?? null,
      props.limit + 1,
    ),
    props.limit,
  );
}
