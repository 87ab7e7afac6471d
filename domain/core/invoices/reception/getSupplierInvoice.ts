import type { TenantContext } from '../../../context';
import { findSupplierInvoice, originalOf, type ReceivedInvoice } from './store';

/** One received invoice as read (404 for another organisation's). */
export const getSupplierInvoice = (ctx: TenantContext, id: string): Promise<ReceivedInvoice> =>
  findSupplierInvoice(ctx.em, id);

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
