import type { TenantContext } from '../../../context';
import { messagesOfSupplierInvoice } from '../lifecycle/store';
import { findSupplierInvoice, originalOf, type ReceivedInvoice } from './store';

/** One received invoice as read (404 for another organisation's), with the statuses emitted for it. */
export async function getSupplierInvoice(ctx: TenantContext, id: string) {
  const invoice: ReceivedInvoice = await findSupplierInvoice(ctx.em, id);
  return { invoice, messages: await messagesOfSupplierInvoice.all(ctx, id) };
}

/** The bytes exactly as received, with their media type and a file name. */
export async function getSupplierInvoiceOriginal(ctx: TenantContext, id: string) {
  const row = await originalOf(ctx.em, id);
  const ext = row.format === 'factur-x' ? 'pdf' : 'xml';
  return {
    bytes: Buffer.from(row.original),
    contentType: row.contentType,
    fileName: `${row.number.replace(/[^A-Za-z0-9_.-]/g, '_')}.${ext}`,
  };
}
