import { newId } from '../../../../entities/base';
import { EInvoiceStatusMessage, type EmittedStatus } from '../../../../entities/core/supplierInvoice';
import type { Em } from '../../../../lib/db';
import { einvoiceQueue } from '../../../../queues/einvoice';
import type { StagedJob } from '../../../../entities/jobs/stagedJob';
import { stageJob } from '../../../jobs/stageJob';
import { STATUS_CODES } from './transitions';

/** The job of a status message. */
export const statusJobId = (messageId: string) => `einvoice.status.${messageId}`;

/**
 * Writes a status message and stages its job in the caller's transaction (the status change it reports commits
 * with it, or neither does); the caller enqueues the staged job once committed.
 */
export function emitStatus(
  em: Em,
  tenantId: string,
  subject: { supplierInvoiceId: string } | { invoiceId: string },
  status: EmittedStatus,
  reason: string | null,
): StagedJob {
  const message = em.create(EInvoiceStatusMessage, {
    id: newId(),
    tenantId,
    supplierInvoiceId: 'supplierInvoiceId' in subject ? subject.supplierInvoiceId : null,
    invoiceId: 'invoiceId' in subject ? subject.invoiceId : null,
    status,
    code: STATUS_CODES[status],
    reason,
    state: 'queued',
    attempts: 0,
    lastError: null,
    sentAt: null,
    platformMessageId: null,
  });
  return stageJob(em, einvoiceQueue, { kind: 'status', tenantId, messageId: message.id }, statusJobId(message.id));
}
