import type { ModuleMount } from '../../http/mount';
import { accepted, Reply } from '../../http/routes';
import { IdParams } from '../../http/dtos';
import { getFacturXml } from '../../../domain/core/invoices/getFacturXml';
import { getUblXml } from '../../../domain/core/invoices/getUblXml';
import { getInvoicePdf } from '../../../domain/core/invoices/getInvoicePdf';
import { getEInvoice } from '../../../domain/core/invoices/einvoice/getEInvoice';
import { submitEInvoice } from '../../../domain/core/invoices/einvoice/submitEInvoice';
import { EInvoiceView } from './views';
import { einvoiceStateDocs, facturXmlDocs, invoicePdfDocs, submitEInvoiceDocs, ublXmlDocs } from './documents.docs';

const fileName = (number: string | null | undefined, ext: string) =>
  `${(number ?? 'invoice').replace(/[^A-Za-z0-9_.-]/g, '_')}.${ext}`;

/** The documents of an issued invoice (Factur-X XML, UBL XML, PDF) and its electronic submission. */
export function documentRoutes({ routes }: ModuleMount): void {
  const r = routes('Invoices');
  const read = { access: 'user', module: 'core', permission: 'core.invoices.read' } as const;

  r.get(
    '/api/invoices/:id/einvoice/factur-x.xml',
    {
      ...read,
      summary: 'Factur-X XML (UN/CEFACT CII D16B, EN 16931 profile)',
      description: facturXmlDocs,
      params: IdParams,
      response: { description: 'CII XML', schema: { type: 'string' }, contentType: 'application/xml' },
      errors: { 409: '`invoice_not_issued`' },
    },
    async ({ ctx, params, res }) => {
      const { invoice, xml } = await getFacturXml(ctx, params.id);
      res
        .type('application/xml')
        .set('Content-Disposition', `inline; filename="${fileName(invoice.number, 'xml')}"`)
        .send(xml);
    },
  );

  r.get(
    '/api/invoices/:id/einvoice/ubl.xml',
    {
      ...read,
      summary: 'UBL 2.1 XML (Invoice / CreditNote, EN 16931)',
      description: ublXmlDocs,
      params: IdParams,
      response: { description: 'UBL XML', schema: { type: 'string' }, contentType: 'application/xml' },
      errors: { 409: '`invoice_not_issued`' },
    },
    async ({ ctx, params, res }) => {
      const { invoice, xml } = await getUblXml(ctx, params.id);
      res
        .type('application/xml')
        .set('Content-Disposition', `inline; filename="${fileName(invoice.number, 'ubl.xml')}"`)
        .send(xml);
    },
  );

  r.get(
    '/api/invoices/:id/pdf',
    {
      ...read,
      summary: 'Invoice PDF with the Factur-X XML embedded',
      description: invoicePdfDocs,
      params: IdParams,
      response: { description: 'The PDF (Factur-X): its bytes', content: { 'application/pdf': {} } },
      errors: { 409: '`invoice_not_issued`' },
    },
    async ({ ctx, params, res }) => {
      const { invoice, pdf } = await getInvoicePdf(ctx.em, params.id);
      res
        .type('application/pdf')
        .set('Content-Disposition', `inline; filename="${fileName(invoice.number, 'pdf')}"`)
        .send(Buffer.from(pdf));
    },
  );

  r.get(
    '/api/invoices/:id/einvoice',
    {
      ...read,
      summary: 'Electronic-invoice status',
      description: einvoiceStateDocs,
      params: IdParams,
      response: EInvoiceView,
    },
    async ({ ctx, params }) => EInvoiceView.from(await getEInvoice(ctx, params.id)),
  );

  r.post(
    '/api/invoices/:id/einvoice/submit',
    {
      access: 'user',
      module: 'core',
      permission: 'core.invoices.issue',
      summary: 'Submit to the e-invoicing platform',
      description: submitEInvoiceDocs,
      params: IdParams,
      response: EInvoiceView,
      status: 202,
      alsoAnswers: { 200: 'Already submitted (or queued): its current state' },
      errors: { 409: '`invoice_not_issued`', 503: '`einvoice_platform_not_configured`' },
    },
    async ({ ctx, params }) => {
      const { state, queued } = await submitEInvoice(ctx, params.id);
      return queued ? accepted(EInvoiceView.from(state)) : new Reply(200, EInvoiceView.from(state));
    },
  );
}
