import type { ModuleMount } from '../../http/mount';
import { created } from '../../http/routes';
import { IdParams } from '../../http/dtos';
import { AppError } from '../../../lib/errors';
import type { TenantContext } from '../../../domain/context';
import {
  getSupplierInvoice,
  getSupplierInvoiceOriginal,
} from '../../../domain/core/invoices/reception/getSupplierInvoice';
import { listSupplierInvoices } from '../../../domain/core/invoices/reception/listSupplierInvoices';
import { receiveSupplierInvoice } from '../../../domain/core/invoices/reception/receiveSupplierInvoice';
import { setSupplierInvoiceStatus } from '../../../domain/core/invoices/lifecycle/setSupplierInvoiceStatus';
import { ListSupplierInvoicesQuery, RefuseSupplierInvoiceBody } from './supplierDtos';
import { SupplierInvoicePageView, SupplierInvoiceView } from './supplierViews';
import {
  lifecycleDocs,
  listSupplierInvoicesDocs,
  receiveSupplierInvoiceDocs,
  supplierInvoiceOriginalDocs,
} from './supplierInvoices.docs';

/** Media types a supplier invoice is uploaded as. */
const UPLOAD_TYPES = ['application/pdf', 'application/xml', 'text/xml'];
export const SUPPLIER_INVOICE_MAX_BYTES = '10mb';

/** /api/supplier-invoices: reception. Read: core.invoices.read; receiving: core.invoices.issue. */
export function supplierInvoiceRoutes({ routes }: ModuleMount): void {
  const r = routes('Supplier invoices');
  const read = { access: 'user', module: 'core', permission: 'core.invoices.read' } as const;

  r.get(
    '/api/supplier-invoices',
    {
      ...read,
      summary: 'List received supplier invoices',
      description: listSupplierInvoicesDocs,
      query: ListSupplierInvoicesQuery,
      response: SupplierInvoicePageView,
    },
    async ({ ctx, query }) => SupplierInvoicePageView.from(await listSupplierInvoices(ctx, query)),
  );

  r.post(
    '/api/supplier-invoices',
    {
      access: 'user',
      module: 'core',
      permission: 'core.invoices.issue',
      summary: 'Receive a supplier invoice (Factur-X PDF, CII or UBL XML)',
      description: receiveSupplierInvoiceDocs,
      rawBody: { type: '*/*', limit: SUPPLIER_INVOICE_MAX_BYTES },
      requestBody: {
        description: 'The document’s bytes',
        content: { 'application/pdf': {}, 'application/xml': {}, 'text/xml': {} },
      },
      response: SupplierInvoiceView,
      status: 201,
      errors: {
        409: '`supplier_invoice_duplicate`',
        415: '`unsupported_media_type`',
        422: '`einvoice_rules_failed` (the rules in `errors`), `einvoice_no_xml`, `einvoice_not_xml`, `einvoice_not_invoice`',
      },
    },
    async ({ ctx, req }) => {
      const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      if (!UPLOAD_TYPES.includes(type))
        throw new AppError(415, 'unsupported_media_type', `send the document as one of ${UPLOAD_TYPES.join(', ')}`);
      const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      if (!bytes.length) throw new AppError(422, 'einvoice_not_xml', 'the body is empty: send the document’s bytes');
      const invoice = await receiveSupplierInvoice(ctx, { bytes, channel: 'upload' });
      return created(SupplierInvoiceView.fromEntity(invoice), `/api/supplier-invoices/${invoice.id}`);
    },
  );

  r.get(
    '/api/supplier-invoices/:id',
    { ...read, summary: 'A received supplier invoice', params: IdParams, response: SupplierInvoiceView },
    async ({ ctx, params }) => {
      const { invoice, messages } = await getSupplierInvoice(ctx, params.id);
      return SupplierInvoiceView.fromEntity(invoice, messages);
    },
  );

  const write = { access: 'user', module: 'core', permission: 'core.invoices.issue' } as const;
  const lifecycle = async (ctx: TenantContext, id: string) => {
    const { invoice, messages } = await getSupplierInvoice(ctx, id);
    return SupplierInvoiceView.fromEntity(invoice, messages);
  };
  for (const [action, summary] of [
    ['approve', 'Approve a received invoice (status 205 to the supplier)'],
    ['pay', 'Mark a received invoice paid (status 211 to the supplier)'],
  ] as const)
    r.post(
      `/api/supplier-invoices/:id/${action}`,
      {
        ...write,
        summary,
        description: lifecycleDocs,
        params: IdParams,
        response: SupplierInvoiceView,
        errors: { 409: '`supplier_invoice_status_final`' },
      },
      async ({ ctx, params }) => {
        await setSupplierInvoiceStatus(ctx, params.id, action);
        return lifecycle(ctx, params.id);
      },
    );
  r.post(
    '/api/supplier-invoices/:id/refuse',
    {
      ...write,
      summary: 'Refuse a received invoice (status 210 with the reason to the supplier)',
      description: lifecycleDocs,
      params: IdParams,
      body: RefuseSupplierInvoiceBody,
      response: SupplierInvoiceView,
      errors: { 409: '`supplier_invoice_status_final`' },
    },
    async ({ ctx, params, body }) => {
      await setSupplierInvoiceStatus(ctx, params.id, 'refuse', body.reason.trim());
      return lifecycle(ctx, params.id);
    },
  );

  r.get(
    '/api/supplier-invoices/:id/original',
    {
      ...read,
      summary: 'The original document as received',
      description: supplierInvoiceOriginalDocs,
      params: IdParams,
      response: {
        description: 'The bytes as received',
        content: { 'application/pdf': {}, 'application/xml': {} },
      },
    },
    async ({ ctx, params, res }) => {
      const original = await getSupplierInvoiceOriginal(ctx, params.id);
      res
        .type(original.contentType)
        .set('Content-Disposition', `attachment; filename="${original.fileName}"`)
        .send(original.bytes);
    },
  );
}
