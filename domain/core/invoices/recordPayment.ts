import { InvoicePayment, type Invoice, type PaymentMethod } from '../../../entities/core/invoice';
import { emitEvent } from '../../webhooks/emitEvent';
import { invoiceData } from '../../webhooks/payloads';
import { conflict, invalidField } from '../../../lib/errors';
import { audit } from '../../platform/audit';
import type { TenantContext } from '../../context';
import { notify } from '../../notifications/notify';
import { invoiceToday, notIssued } from './lookup';
import { outstandingOf, settlementStatus } from './settlement';
import { findInvoice } from './store';
import { enqueueStaged } from '../../jobs/stageJob';
import { emitCollected } from './lifecycle/emitCollected';

export interface PaymentProps {
  /** Default: everything outstanding. */
  amountCents?: number;
  /** Default: today; not in the future nor before the issue date. */
  paidOn?: string;
  method?: PaymentMethod;
  reference?: string;
}

/**
 * Records a payment received against an issued invoice (partial payments allowed, never more than what is
 * outstanding: 409 payment_exceeds_balance; nothing outstanding: 409 invoice_settled). The invoice's paidCents
 * and status follow (settlement.ts). Payments are append-only. A payment that settles an invoice submitted to the
 * platform emits "Encaissée" (lifecycle/emitCollected.ts) with it.
 */
export async function recordPayment(ctx: TenantContext, invoiceId: string, props: PaymentProps): Promise<Invoice> {
  const today = invoiceToday();
  if (props.paidOn && props.paidOn > today) throw invalidField('paidOn', `may not be after today (${today})`);
  const { invoice, amountCents, collected } = await ctx.em.transactional(async (em) => {
    const invoice = await findInvoice(em, invoiceId, { lock: true });
    if (invoice.kind !== 'invoice')
      throw conflict('credit_note_not_payable', 'A credit note is not paid: record the payments on invoices');
    if (invoice.status === 'draft') throw notIssued();
    if (props.paidOn && props.paidOn < invoice.issueDate!)
      throw invalidField('paidOn', `may not be before the issue date (${invoice.issueDate})`);
    const outstanding = outstandingOf(invoice);
    if (outstanding === 0) throw conflict('invoice_settled', `Nothing is outstanding on invoice ${invoice.number}`);
    const amountCents = props.amountCents ?? outstanding;
    if (amountCents > outstanding)
      throw conflict(
        'payment_exceeds_balance',
        `At most ${outstanding} cents are outstanding on invoice ${invoice.number}`,
      );
    em.create(InvoicePayment, {
      tenantId: ctx.tenantId,
      invoiceId: invoice.id,
      amountCents,
      paidOn: props.paidOn ?? today,
      method: props.method ?? 'bank_transfer',
      reference: props.reference?.trim() || null,
      recordedBy: ctx.userId,
    });
    invoice.paidCents += amountCents;
    invoice.status = settlementStatus(invoice);
    audit(em, {
      action: 'core.invoice.payment_recorded',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'invoice',
      targetId: invoice.id,
      data: { amountCents },
    });
    if (invoice.status === 'paid') emitEvent(em, ctx.tenantId, 'invoice.paid', invoiceData(invoice));
    return { invoice, amountCents, collected: await emitCollected(em, ctx.tenantId, invoice) };
  });
  if (collected) await enqueueStaged(ctx.services, [collected]);
  await notify(ctx.services, 'core', [
    {
      event: 'invoice.payment_recorded',
      tenantId: ctx.tenantId,
      subject: { invoiceId: invoice.id, customerId: invoice.customerId },
      data: { amountCents, paidCents: invoice.paidCents, status: invoice.status },
    },
  ]);
  return invoice;
}
