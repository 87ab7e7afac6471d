import type { EReport } from '../../../../entities/core/ereport';
import { einvoicePlatform, PlatformError, type EReportMessage } from '../../../../lib/einvoice';
import { tenantContext } from '../../../context';
import type { Services } from '../../../services';
import { findReport } from './store';

/** What the platform receives of a report. */
export const ereportMessage = (r: EReport): EReportMessage => ({
  id: r.id,
  kind: r.kind,
  period: { start: r.periodStart, end: r.periodEnd },
  vatRegime: r.vatRegime,
  sequence: r.sequence,
  rectifying: r.sequence > 0,
  seller: { siren: r.sellerSiren ?? null, vatNumber: r.sellerVatNumber ?? null, name: r.sellerName },
  currency: r.currency,
  lines: r.lines,
  totals: { taxableCents: r.taxableCents, vatCents: r.vatCents, itemCount: r.itemCount },
});

/**
 * The job of a report: transmits it with the report id as Idempotency-Key (a retried, replayed or re-sent job
 * transmits it once on the platform), then records it sent. A report sent already is left alone; without a
 * configured platform it is recorded not_sent. A platform outage throws, for the queue to retry; a refusal (a
 * permanent 4xx) is recorded failed with its reason.
 */
export async function sendEReport(services: Services, tenantId: string, reportId: string): Promise<void> {
  const { em } = tenantContext(services, tenantId);
  const report = await findReport(em, reportId).catch(() => null);
  if (!report || report.state === 'sent') return;
  const platform = einvoicePlatform(services.config);
  if (!platform) {
    Object.assign(report, { state: 'not_sent', lastError: 'no e-invoicing platform is configured' });
    await em.flush();
    return;
  }
  report.attempts += 1;
  try {
    const sent = await platform.sendEReport(ereportMessage(report), report.id);
    Object.assign(report, { state: 'sent', sentAt: new Date(), platformReportId: sent.id, lastError: null });
    await em.flush();
  } catch (err) {
    const permanent = err instanceof PlatformError && err.permanent;
    Object.assign(report, { state: permanent ? 'failed' : 'queued', lastError: (err as Error).message.slice(0, 1000) });
    await em.flush();
    if (!permanent) throw err;
  }
}

/** After the last attempt: the report is failed, with the last error (a re-send tries again). */
export async function failEReport(services: Services, tenantId: string, reportId: string, error: string) {
  const { em } = tenantContext(services, tenantId);
  const report = await findReport(em, reportId).catch(() => null);
  if (!report || report.state === 'sent') return;
  Object.assign(report, { state: 'failed', lastError: error.slice(0, 1000) });
  await em.flush();
}
