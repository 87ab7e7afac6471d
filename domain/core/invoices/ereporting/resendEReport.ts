import type { EReport } from '../../../../entities/core/ereport';
import type { StagedJob } from '../../../../entities/jobs/stagedJob';
import { conflict } from '../../../../lib/errors';
import { einvoiceQueue } from '../../../../queues/einvoice';
import type { TenantContext } from '../../../context';
import { enqueueStaged, stageJob } from '../../../jobs/stageJob';
import { ereportJobId } from './buildEReports';
import { findReport } from './store';

/**
 * Sends a report again: a new round (its own job, staged with the change, so it is not lost), with the same
 * Idempotency-Key (the report id), so a platform that had it already answers the same id and keeps one. A report
 * still being sent is 409 `ereport_queued` (its job is retrying).
 */
export async function resendEReport(ctx: TenantContext, id: string): Promise<EReport> {
  const { report, staged } = await ctx.em.transactional(async (em): Promise<{ report: EReport; staged: StagedJob }> => {
    const report = await findReport(em, id, { lock: true });
    if (report.state === 'queued')
      throw conflict('ereport_queued', 'The report is being sent: its job retries until the platform answers');
    Object.assign(report, { state: 'queued', round: report.round + 1 });
    const staged = stageJob(
      em,
      einvoiceQueue,
      { kind: 'ereport', tenantId: ctx.tenantId, reportId: report.id },
      ereportJobId(report.id, report.round),
    );
    return { report, staged };
  });
  await enqueueStaged(ctx.services, [staged]);
  return report;
}
