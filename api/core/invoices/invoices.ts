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
import { CreditNoteBody, InvoiceDraftBody, ListInvoicesQuery, PaymentBody } from './dtos';
import { InvoicePageView, InvoiceView } from './views';

const ROUNDING =
  'Amounts are integers in cents (EUR). Line net = round(quantity × unit price) − discount; per VAT breakdown (category + rate) taxable = Σ line nets and VAT = round(taxable × rate), rounded once per breakdown as EN 16931 does (BR-CO-17), never per line; grand total = Σ nets + Σ breakdown VAT. Rounding is half up, to the cent.';

/** /api/invoices: drafts, issue, credit notes and payments. Read: core.invoices.read; everything else: core.invoices.issue. */
export function invoiceRoutes({ routes }: ModuleMount): void {
  const r = routes('Invoices');
  const read = { access: 'user', module: 'core', permission: 'core.invoices.read' } as const;
  const write = { access: 'user', module: 'core', permission: 'core.invoices.issue' } as const;

  r.get(
    '/api/invoices',
    { ...read, summary: 'List invoices and credit notes', description: 'Newest first; filter by kind, status, customer or overdue.', query: ListInvoicesQuery, response: InvoicePageView },
    async ({ ctx, query }) => InvoicePageView.from(await listInvoices(ctx, query)),
  );

  r.post(
    '/api/invoices',
    {
      ...write,
      summary: 'Create a draft invoice',
      description: `A draft for a customer of the CRM (404 when the organisation has no such customer): lines with quantity (3 decimals), unit price, VAT rate and EN 16931 category (S, Z, E, AE, K, O with an exemption reason where the category needs one) and an optional discount. ${ROUNDING} A draft has no number; it is edited (PUT) or deleted freely until issued.`,
      body: InvoiceDraftBody,
      response: InvoiceView,
      status: 201,
      errors: { 404: 'The customer does not exist in this organisation' },
    },
    async ({ ctx, body }) => {
      const invoice = await createInvoice(ctx, body);
      return created(InvoiceView.fromDetail({ invoice, payments: [], related: [] }), `/api/invoices/${invoice.id}`);
    },
  );

  r.get('/api/invoices/:id', { ...read, summary: 'Get an invoice or credit note', description: 'With lines, VAT breakdown, totals, payments and related documents.', params: IdParams, response: InvoiceView }, async ({ ctx, params }) =>
    InvoiceView.fromDetail(await getInvoice(ctx, params.id)),
  );

  r.put(
    '/api/invoices/:id',
    {
      ...write,
      summary: 'Replace a draft',
      description: `The whole draft is replaced by the body (same shape as POST). Only while draft: 409 \`invoice_not_draft\` once issued. ${ROUNDING}`,
      params: IdParams,
      body: InvoiceDraftBody,
      response: InvoiceView,
      errors: { 409: '`invoice_not_draft`' },
    },
    async ({ ctx, params, body }) => InvoiceView.fromDetail({ invoice: await updateInvoice(ctx, params.id, body), payments: [], related: [] }),
  );

  r.delete(
    '/api/invoices/:id',
    { ...write, summary: 'Delete a draft', description: 'Only drafts: an issued invoice or credit note is kept (409 `invoice_not_draft`; the database refuses it too).', params: IdParams, status: 204, errors: { 409: '`invoice_not_draft`' } },
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
      description:
        "Gives the draft the next number of the organisation's invoice sequence (gapless and chronological: taken inside the issuing transaction under the counter's row lock; prefix and yearly reset in /api/invoices/settings), dates it today (Europe/Paris), copies the seller (business record) and the buyer (customer and the draft's buyer details), and sets the due date (draft's, else issue date + dueDays) and payment terms. From then on the document never changes (the database refuses it) except its settlement. 409 `invoice_not_draft` when already issued; 409 `invoice_incomplete` with field errors when EN 16931 needs details that are missing (seller address or VAT number, seller SIREN when the document carries no seller VAT number, as with category O (BR-CO-26), buyer address with country, buyer VAT number for AE/K, due date before today); 409 `invoice_number_taken` when the numbering settings would repeat an issued number.",
      params: IdParams,
      response: InvoiceView,
      errors: { 409: '`invoice_not_draft`, `invoice_incomplete`, `invoice_number_taken`' },
    },
    async ({ ctx, params }) => InvoiceView.fromDetail({ invoice: await issueInvoice(ctx, params.id), payments: [], related: [] }),
  );

  r.post(
    '/api/invoices/:id/credit-note',
    {
      ...write,
      summary: 'Issue a credit note',
      description:
        "A credit note (type 381) correcting an issued invoice, issued at once with the next number of the credit-note sequence and referencing the invoice. Without lines it credits every line (only while nothing is credited yet, else 409 `credit_lines_required`); with lines, those (partial). All credit notes of an invoice together stay within its amount per VAT category and rate (409 `credit_exceeds_invoice`). A credit note's VAT per category and rate is round(taxable credited so far × rate) less the VAT its earlier credit notes credited, and exactly the rest of the invoice's VAT once that category and rate is fully credited: the credit notes add up to the invoice's VAT, so crediting it line by line leaves nothing outstanding (a credit note's VAT may differ by one cent from round(its own taxable × rate), within EN 16931's tolerance). The invoice's status follows: partially_credited or credited (see GET). Answers the credit note. 409 `invoice_not_issued` for a draft (delete it instead), `not_an_invoice` for a credit note.",
      params: IdParams,
      body: CreditNoteBody,
      response: InvoiceView,
      status: 201,
      errors: { 409: '`invoice_not_issued`, `not_an_invoice`, `credit_lines_required`, `credit_exceeds_invoice`, `invoice_number_taken`' },
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
      description:
        "Records a payment received (partial allowed; by default everything outstanding, today, by bank transfer). The status follows: partially_paid, then paid once payments and credit notes cover the grand total. 409 `payment_exceeds_balance` above what is outstanding, `invoice_settled` when nothing is, `invoice_not_issued` for a draft, `credit_note_not_payable` for a credit note. Payments are append-only. Answers the invoice.",
      params: IdParams,
      body: PaymentBody,
      response: InvoiceView,
      errors: { 409: '`payment_exceeds_balance`, `invoice_settled`, `invoice_not_issued`, `credit_note_not_payable`' },
    },
    async ({ ctx, params, body }) => InvoiceView.fromDetail(await detailOf(ctx, await recordPayment(ctx, params.id, body))),
  );
}
