import type { ModuleMount } from '../../http/mount';
import { created, noContent } from '../../http/routes';
import { IdParams } from '../../http/dtos';
import { createCreditNote } from '../../../domain/core/invoices/createCreditNote';
import { createInvoice } from '../../../domain/core/invoices/createInvoice';
import { deleteInvoice } from '../../../domain/core/invoices/deleteInvoice';
import { detailOf, getInvoice } from '../../../domain/core/invoices/getInvoice';
import { issueInvoice } from '../../../domain/core/invoices/issueInvoice';
import { listInvoices } from '../../../domain/core/invoices/listInvoices';
import { recordPayment } from '../../../domain/core/invoices/recordPayment';
import { updateInvoice } from '../../../domain/core/invoices/updateInvoice';
import { CreditNoteBody, InvoiceDraftBody, IssueInvoiceBody, ListInvoicesQuery, PaymentBody } from './dtos';
import { InvoicePageView, InvoiceView } from './views';
import {
  createDraftDocs,
  creditNoteConflictDocs,
  creditNoteDocs,
  deleteDraftDocs,
  issueDraftDocs,
  recordPaymentDocs,
  replaceDraftDocs,
} from './invoices.docs';

/** /api/invoices: drafts, issue, credit notes and payments. Read: core.invoices.read; everything else: core.invoices.issue. */
export function invoiceRoutes({ routes }: ModuleMount): void {
  const r = routes('Invoices');
  const read = { access: 'user', module: 'core', permission: 'core.invoices.read' } as const;
  const write = { access: 'user', module: 'core', permission: 'core.invoices.issue' } as const;

  r.get(
    '/api/invoices',
    {
      ...read,
      summary: 'List invoices and credit notes',
      description: 'Newest first; filter by kind, status, customer or overdue.',
      query: ListInvoicesQuery,
      response: InvoicePageView,
    },
    async ({ ctx, query }) => InvoicePageView.from(await listInvoices(ctx, query)),
  );

  r.post(
    '/api/invoices',
    {
      ...write,
      summary: 'Create a draft invoice',
      description: createDraftDocs,
      body: InvoiceDraftBody,
      response: InvoiceView,
      status: 201,
      errors: {
        400: '`unknown_currency`, `currency_not_supported`, `validation_failed`',
        404: 'The customer does not exist in this organisation',
      },
    },
    async ({ ctx, body }) => {
      const invoice = await createInvoice(ctx, body);
      return created(InvoiceView.fromDetail({ invoice, payments: [], related: [] }), `/api/invoices/${invoice.id}`);
    },
  );

  r.get(
    '/api/invoices/:id',
    {
      ...read,
      summary: 'Get an invoice or credit note',
      description: 'With lines, VAT breakdown, totals, payments and related documents.',
      params: IdParams,
      response: InvoiceView,
    },
    async ({ ctx, params }) => InvoiceView.fromDetail(await getInvoice(ctx, params.id)),
  );

  r.put(
    '/api/invoices/:id',
    {
      ...write,
      summary: 'Replace a draft',
      description: replaceDraftDocs,
      params: IdParams,
      body: InvoiceDraftBody,
      response: InvoiceView,
      errors: { 409: '`invoice_not_draft`' },
    },
    async ({ ctx, params, body }) => {
      const invoice = await updateInvoice(ctx, params.id, body);
      return InvoiceView.fromDetail({ invoice, payments: [], related: [] });
    },
  );

  r.delete(
    '/api/invoices/:id',
    {
      ...write,
      summary: 'Delete a draft',
      description: deleteDraftDocs,
      params: IdParams,
      status: 204,
      errors: { 409: '`invoice_not_draft`' },
    },
    async ({ ctx, params }) => {
      await deleteInvoice(ctx, params.id);
      return noContent();
    },
  );

  r.post(
    '/api/invoices/:id/issue',
    {
      ...write,
      summary: 'Issue a draft',
      description: issueDraftDocs,
      params: IdParams,
      body: IssueInvoiceBody,
      optionalBody: true,
      response: InvoiceView,
      errors: {
        400: '`exchange_rate_required`, `exchange_rate_not_applicable`, `validation_failed` (the rate)',
        409: '`invoice_not_draft`, `invoice_incomplete`, `invoice_number_taken`, `invoice_french_rules_failed`',
      },
    },
    async ({ ctx, params, body }) =>
      InvoiceView.fromDetail({ invoice: await issueInvoice(ctx, params.id, body), payments: [], related: [] }),
  );

  r.post(
    '/api/invoices/:id/credit-note',
    {
      ...write,
      summary: 'Issue a credit note',
      description: creditNoteDocs,
      params: IdParams,
      body: CreditNoteBody,
      response: InvoiceView,
      status: 201,
      errors: { 409: creditNoteConflictDocs },
    },
    async ({ ctx, params, body }) => {
      const creditNote = await createCreditNote(ctx, params.id, body);
      return created(InvoiceView.fromDetail(await detailOf(ctx, creditNote)), `/api/invoices/${creditNote.id}`);
    },
  );

  r.post(
    '/api/invoices/:id/pay',
    {
      ...write,
      summary: 'Record a payment',
      description: recordPaymentDocs,
      params: IdParams,
      body: PaymentBody,
      response: InvoiceView,
      errors: { 409: '`payment_exceeds_balance`, `invoice_settled`, `invoice_not_issued`, `credit_note_not_payable`' },
    },
    async ({ ctx, params, body }) =>
      InvoiceView.fromDetail(await detailOf(ctx, await recordPayment(ctx, params.id, body))),
  );
}
