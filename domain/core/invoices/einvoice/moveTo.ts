import { EInvoiceEvent, type EInvoiceStatus, type EInvoiceSubmission } from '../../../../entities/core/einvoice';
import type { Em } from '../../../../lib/db';
import { notify } from '../../../notifications/notify';
import type { Services } from '../../../services';

/** Records a status change of a submission (event and current status) and tells the hub. */
export async function moveTo(
  services: Services,
  em: Em,
  submission: EInvoiceSubmission,
  status: EInvoiceStatus,
  detail: string | null,
  platformEventId: string | null,
  at = new Date(),
): Promise<void> {
  const previous = submission.status;
  submission.status = status;
  em.create(EInvoiceEvent, {
    tenantId: submission.tenantId,
    invoiceId: submission.invoiceId,
    status,
    occurredAt: at,
    detail,
    platformEventId,
  });
  await em.flush();
  await notify(services, 'core', [
    {
      event: 'einvoice.status_changed',
      tenantId: submission.tenantId,
      subject: { invoiceId: submission.invoiceId },
      data: { status, previous, detail },
    },
  ]);
}
