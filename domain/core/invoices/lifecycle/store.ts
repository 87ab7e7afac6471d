import { EInvoiceStatusMessage } from '../../../../entities/core/supplierInvoice';
import type { Em } from '../../../../lib/db';
import { lean } from '../../../../lib/lean';

/** The statements of emitted lifecycle statuses. No rule here. */

export const findStatusMessage = (em: Em, id: string) => em.findOne(EInvoiceStatusMessage, { id });

export const messageOf = (em: Em, by: { supplierInvoiceId: string } | { invoiceId: string }, status: string) =>
  em.findOne(EInvoiceStatusMessage, { ...by, status: status as EInvoiceStatusMessage['status'] });

/** The statuses emitted for a received invoice, oldest first. */
export const messagesOfSupplierInvoice = lean(EInvoiceStatusMessage, {
  where: 'supplier_invoice_id = $1',
  orderBy: 'id asc',
});

/** The statuses emitted for an issued invoice, oldest first. */
export const messagesOfInvoice = lean(EInvoiceStatusMessage, { where: 'invoice_id = $1', orderBy: 'id asc' });
