import type { ModuleMount } from '../../http/mount';
import type { RateLimitRule } from '../../http/rateLimit';
import { IdParams, PageQuery } from '../../http/dtos';
import { invoiceLink, invoicePdfLink } from '../../../domain/core/invoices/customerLinks';
import { readPublicInvoice, readPublicInvoicePdf } from '../../../domain/core/invoices/readPublicInvoice';
import { openPaymentLink } from '../../../domain/core/invoices/payLinks/openPaymentLink';
import { openPublicPaymentLink } from '../../../domain/core/invoices/payLinks/openPublicPaymentLink';
import { payUrlOf } from '../../../domain/core/invoices/payLinks/payUrl';
import { tenantContext } from '../../../domain/context';
import { listInvoiceReminders, listReminders } from '../../../domain/core/invoices/reminders/listReminders';
import { sendInvoice } from '../../../domain/core/invoices/sendInvoice';
import { QuoteTokenQuery } from './quoteDtos';
import {
  InvoiceRemindersView,
  InvoiceSentView,
  PaymentLinkView,
  PublicInvoiceView,
  ReminderPageView,
} from './customerViews';
import {
  paymentLinkConflicts,
  paymentLinkDocs,
  publicInvoiceDocs,
  publicPayDocs,
  sendInvoiceDocs,
} from './invoices.docs';

const P = '/api/public/invoices';
const pdfName = (number: string | null | undefined) => `${(number ?? 'invoice').replace(/[^A-Za-z0-9_.-]/g, '_')}.pdf`;

/**
 * What goes to the customer and chases it: mailing an issued invoice with its signed link, the reminders mailed
 * and planned (JWT, module core), and the signed link itself (/api/public/invoices: no account, no organisation id).
 * Mounted before /api/invoices/:id, whose id would take the literal `accounting`.
 */
export function customerLinkRoutes({ routes, services }: ModuleMount): void {
  const r = routes('Invoices');
  const read = { access: 'user', module: 'core', permission: 'core.invoices.read' } as const;
  const write = { access: 'user', module: 'core', permission: 'core.invoices.issue' } as const;

  r.get(
    '/api/invoices/accounting/reminders',
    {
      ...read,
      summary: 'Payment reminders mailed',
      description: "The organisation's payment reminders, newest first (docs: accounting.md).",
      query: PageQuery,
      response: ReminderPageView,
    },
    async ({ ctx, query }) => ReminderPageView.from(await listReminders(ctx, query)),
  );

  r.get(
    '/api/invoices/:id/reminders',
    {
      ...read,
      summary: "An invoice's payment reminders",
      description:
        "Those mailed (oldest first) and the steps of the organisation's plan still to come while the invoice is open and reminders are on.",
      params: IdParams,
      response: InvoiceRemindersView,
    },
    async ({ ctx, params }) => InvoiceRemindersView.from(await listInvoiceReminders(ctx, params.id)),
  );

  r.post(
    '/api/invoices/:id/send',
    {
      ...write,
      summary: 'Mail an issued invoice to its customer',
      description: sendInvoiceDocs,
      params: IdParams,
      response: InvoiceSentView,
      errors: { 409: '`invoice_not_issued`, `invoice_no_recipient`' },
    },
    async ({ ctx, params }) => {
      const invoice = await sendInvoice(ctx, params.id);
      return { invoiceId: invoice.id, to: invoice.buyer!.email!, customerLink: invoiceLink(ctx.services, invoice.id) };
    },
  );

  r.post(
    '/api/invoices/:id/payment-link',
    {
      ...write,
      summary: "Open an invoice's hosted payment page",
      description: paymentLinkDocs,
      params: IdParams,
      response: PaymentLinkView,
      errors: {
        409: paymentLinkConflicts,
        502: '`payment_provider_error`',
        503: '`payment_provider_not_configured`, `payment_provider_unavailable`',
      },
    },
    async ({ ctx, params }) => PaymentLinkView.from(await openPaymentLink(ctx, params.id)),
  );

  const pub = routes('Invoices (customer link)');
  const limits: RateLimitRule[] = [{ name: 'invoice-link', limit: services.config.RATE_LIMIT_ANON_PER_MINUTE }];
  const anon = { access: 'public', rateLimits: limits } as const;
  const noStore = { 'Cache-Control': 'no-store' };

  pub.get(
    P,
    {
      ...anon,
      summary: 'An invoice, as its customer sees it',
      description: publicInvoiceDocs,
      query: QuoteTokenQuery,
      response: PublicInvoiceView,
      errors: { 404: 'Unknown or forged token' },
    },
    async ({ res, query }) => {
      res.set(noStore);
      const invoice = await readPublicInvoice(services, query.token);
      const payUrl = await payUrlOf(services, tenantContext(services, invoice.tenantId).em, invoice);
      return PublicInvoiceView.from(invoice, invoicePdfLink(services, invoice.id), payUrl);
    },
  );

  const payErrors = {
    404: 'Unknown or forged token',
    409: paymentLinkConflicts,
    502: '`payment_provider_error`',
    503: '`payment_provider_not_configured`, `payment_provider_unavailable`',
  };
  pub.post(
    `${P}/pay`,
    {
      ...anon,
      summary: 'Pay an invoice online, from its customer link',
      description: publicPayDocs,
      query: QuoteTokenQuery,
      response: PaymentLinkView,
      errors: payErrors,
    },
    async ({ res, query }) => {
      res.set(noStore);
      return PaymentLinkView.from(await openPublicPaymentLink(services, query.token));
    },
  );

  pub.get(
    `${P}/pay`,
    {
      ...anon,
      summary: 'The payment link: redirects to the hosted payment page',
      description:
        "What the reminders and the customer link's payUrl point at: opens (or reuses) the invoice's hosted payment page as POST does and answers 303 to it.",
      query: QuoteTokenQuery,
      status: 303,
      response: { description: 'Redirect to the hosted payment page (Location)' },
      errors: payErrors,
    },
    async ({ res, query }) => {
      const link = await openPublicPaymentLink(services, query.token);
      res
        .status(303)
        .set({ ...noStore, Location: link.url })
        .end();
    },
  );

  pub.get(
    `${P}/pdf`,
    {
      ...anon,
      summary: "An invoice's PDF, for its customer",
      description: 'The Factur-X PDF of the issued invoice or credit note the signed token names. 404 for a bad token.',
      query: QuoteTokenQuery,
      response: { description: 'The PDF: its bytes', content: { 'application/pdf': {} } },
      errors: { 404: 'Unknown or forged token' },
    },
    async ({ res, query }) => {
      const { invoice, pdf } = await readPublicInvoicePdf(services, query.token);
      res
        .set(noStore)
        .type('application/pdf')
        .set('Content-Disposition', `inline; filename="${pdfName(invoice.number)}"`)
        .send(Buffer.from(pdf));
    },
  );
}
