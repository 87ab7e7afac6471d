import type { ModuleMount } from '../../http/mount';
import { accepted, Reply } from '../../http/routes';
import { IdParams } from '../../http/dtos';
import { facturXml, invoicePdf } from '../../../domain/core/invoices/documents';
import { getEInvoice } from '../../../domain/core/invoices/einvoice/getEInvoice';
import { submitEInvoice } from '../../../domain/core/invoices/einvoice/submitEInvoice';
import { EInvoiceView } from './views';

const fileName = (number: string | null | undefined, ext: string) => `${(number ?? 'invoice').replace(/[^A-Za-z0-9_.-]/g, '_')}.${ext}`;

/** The documents of an issued invoice (Factur-X XML, PDF) and its electronic submission. */
export function documentRoutes({ routes }: ModuleMount): void {
  const r = routes('Invoices');
  const read = { access: 'user', module: 'core', permission: 'core.invoices.read' } as const;

  r.get(
    '/api/invoices/:id/einvoice/factur-x.xml',
    {
      ...read,
      summary: 'Factur-X XML (UN/CEFACT CII D16B, EN 16931 profile)',
      description: 'The Cross Industry Invoice of an issued invoice or credit note, valid against the Factur-X 1.07 EN 16931 schema; the same bytes every time. 409 `invoice_not_issued` for a draft.',
      params: IdParams,
      response: { description: 'CII XML', schema: { type: 'string' }, contentType: 'application/xml' },
      errors: { 409: '`invoice_not_issued`' },
    },
    async ({ ctx, params, res }) => {
      const { invoice, xml } = await facturXml(ctx, params.id);
      res.type('application/xml').set('Content-Disposition', `inline; filename="${fileName(invoice.number, 'xml')}"`).send(xml);
    },
  );

  r.get(
    '/api/invoices/:id/pdf',
    {
      ...read,
      summary: 'Invoice PDF with the Factur-X XML embedded',
      description: 'A readable PDF of an issued invoice or credit note carrying its Factur-X XML as the embedded file factur-x.xml (AFRelationship Alternative) with Factur-X XMP metadata (EN 16931). 409 `invoice_not_issued` for a draft.',
      params: IdParams,
      response: { description: 'The PDF (Factur-X): its bytes', content: { 'application/pdf': {} } },
      errors: { 409: '`invoice_not_issued`' },
    },
    async ({ ctx, params, res }) => {
      const { invoice, pdf } = await invoicePdf(ctx.em, params.id);
      res.type('application/pdf').set('Content-Disposition', `inline; filename="${fileName(invoice.number, 'pdf')}"`).send(Buffer.from(pdf));
    },
  );

  r.get(
    '/api/invoices/:id/einvoice',
    {
      ...read,
      summary: 'Electronic-invoice status',
      description: 'not_submitted, or the submission to the e-invoicing platform with its lifecycle status and history (queued, submitted, then as the platform reports: delivered, received, approved, disputed, refused, paid; rejected when the platform refused the document; failed when it could not be reached after every retry).',
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
      description:
        'Queues the Factur-X PDF of an issued invoice or credit note for the configured platform (PDP/PPF): 202 with status queued; a worker sends it, retried with exponential backoff while the platform fails, and never twice (the submission is unique per document and the platform receives an Idempotency-Key). Submitting again answers the existing submission with 200 (one still queued is put back in the queue if it is not there: safe to repeat after a failed call). A submission that `failed` (the platform could not be reached after every retry) is resubmitted: 202, queued again. 503 `einvoice_platform_not_configured` without EINVOICE_PLATFORM_URL; 409 `invoice_not_issued` for a draft.',
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
