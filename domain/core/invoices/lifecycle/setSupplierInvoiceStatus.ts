import { conflict } from '../../../../lib/errors';
import type { TenantContext } from '../../../context';
import type { StagedJob } from '../../../../entities/jobs/stagedJob';
import { enqueueStaged } from '../../../jobs/stageJob';
import { findSupplierInvoice, type ReceivedInvoice } from '../reception/store';
import { emitStatus } from './emitStatus';
import { supplierTransition, type SupplierAction } from './transitions';

/**
 * Approves, refuses (with its reason) or marks paid a received invoice, and emits the status to the platform:
 * the change and its status message (with the job that sends it) commit together, so the status is never lost
 * and reported once. The same action again answers the invoice unchanged; a move the lifecycle does not allow is
 * 409 `supplier_invoice_status_final`.
 */
export async function setSupplierInvoiceStatus(
  ctx: TenantContext,
  id: string,
  action: SupplierAction,
  reason: string | null = null,
): Promise<ReceivedInvoice> {
  const { invoice, staged } = await ctx.em.transactional(
    async (em): Promise<{ invoice: ReceivedInvoice; staged: StagedJob | null }> => {
      const invoice = await findSupplierInvoice(em, id, { lock: true });
      const move = supplierTransition(invoice.status, action);
      if ('refused' in move) throw conflict('supplier_invoice_status_final', move.refused);
      if (move.same) return { invoice, staged: null };
      Object.assign(invoice, {
        status: move.to,
        statusReason: move.to === 'refused' ? reason : null,
        statusChangedAt: new Date(),
      });
      const staged = emitStatus(
        em,
        ctx.tenantId,
        { supplierInvoiceId: invoice.id },
        move.to,
        move.to === 'refused' ? reason : null,
      );
      return { invoice, staged };
    },
  );
  if (staged) await enqueueStaged(ctx.services, [staged]);
  return invoice;
}
