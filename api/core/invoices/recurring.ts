import type { ModuleMount } from '../../http/mount';
import { created, noContent } from '../../http/routes';
import { IdParams } from '../../http/dtos';
import { createRecurringInvoice } from '../../../domain/core/invoices/recurring/createRecurringInvoice';
import { deleteRecurringInvoice } from '../../../domain/core/invoices/recurring/deleteRecurringInvoice';
import { getRecurringInvoice, recurringDetailOf } from '../../../domain/core/invoices/recurring/getRecurringInvoice';
import { listRecurringInvoices } from '../../../domain/core/invoices/recurring/listRecurringInvoices';
import { pauseRecurringInvoice } from '../../../domain/core/invoices/recurring/pauseRecurringInvoice';
import { resumeRecurringInvoice } from '../../../domain/core/invoices/recurring/resumeRecurringInvoice';
import { updateRecurringInvoice } from '../../../domain/core/invoices/recurring/updateRecurringInvoice';
import { ListRecurringInvoicesQuery, RecurringInvoiceBody, RecurringInvoicePatchBody } from './recurringDtos';
import { RecurringInvoicePageView, RecurringInvoiceView } from './recurringViews';
import { createRecurringDocs, patchRecurringDocs } from './recurring.docs';

const P = '/api/recurring-invoices';

/** /api/recurring-invoices: schedules the clock invoices once per period. Read: core.invoices.read; the rest: core.invoices.issue. */
export function recurringInvoiceRoutes({ routes }: ModuleMount): void {
  const r = routes('Recurring invoices');
  const read = { access: 'user', module: 'core', permission: 'core.invoices.read' } as const;
  const write = { access: 'user', module: 'core', permission: 'core.invoices.issue' } as const;

  r.get(
    P,
    {
      ...read,
      summary: 'List recurring invoices',
      description: 'Newest first; filter by status or customer.',
      query: ListRecurringInvoicesQuery,
      response: RecurringInvoicePageView,
    },
    async ({ ctx, query }) => RecurringInvoicePageView.from(await listRecurringInvoices(ctx, query)),
  );

  r.post(
    P,
    {
      ...write,
      summary: 'Create a recurring invoice',
      description: createRecurringDocs,
      body: RecurringInvoiceBody,
      response: RecurringInvoiceView,
      status: 201,
      errors: {
        400: '`unknown_currency`, `currency_not_supported`, `exchange_rate_required` (autoIssue in a foreign currency), `validation_failed`',
        404: 'The customer does not exist in this organisation',
      },
    },
    async ({ ctx, body }) => {
      const schedule = await createRecurringInvoice(ctx, body);
      return created(RecurringInvoiceView.fromDetail(await recurringDetailOf(ctx, schedule)), `${P}/${schedule.id}`);
    },
  );

  r.get(
    `${P}/:id`,
    {
      ...read,
      summary: 'Get a recurring invoice',
      description: 'With its template, cadence, next run day and the invoices made per period (latest 50).',
      params: IdParams,
      response: RecurringInvoiceView,
    },
    async ({ ctx, params }) => RecurringInvoiceView.fromDetail(await getRecurringInvoice(ctx, params.id)),
  );

  r.patch(
    `${P}/:id`,
    {
      ...write,
      summary: 'Change a recurring invoice',
      description: patchRecurringDocs,
      params: IdParams,
      body: RecurringInvoicePatchBody,
      response: RecurringInvoiceView,
      errors: {
        400: '`exchange_rate_required` (autoIssue in a foreign currency), `validation_failed`',
        404: 'The recurring invoice, or the new customer, does not exist in this organisation',
        409: '`recurring_invoice_ended`, `recurring_invoice_started` (startOn once a period is invoiced)',
      },
    },
    async ({ ctx, params, body }) =>
      RecurringInvoiceView.fromDetail(await recurringDetailOf(ctx, await updateRecurringInvoice(ctx, params.id, body))),
  );

  r.delete(
    `${P}/:id`,
    {
      ...write,
      summary: 'Delete a recurring invoice',
      description: 'No period is invoiced any more; the invoices already made stay as they are.',
      params: IdParams,
      status: 204,
    },
    async ({ ctx, params }) => {
      await deleteRecurringInvoice(ctx, params.id);
      return noContent();
    },
  );

  r.post(
    `${P}/:id/pause`,
    {
      ...write,
      summary: 'Pause a recurring invoice',
      description: 'The clock skips it until resumed. 409 `recurring_invoice_ended` once ended.',
      params: IdParams,
      response: RecurringInvoiceView,
      errors: { 409: '`recurring_invoice_ended`' },
    },
    async ({ ctx, params }) =>
      RecurringInvoiceView.fromDetail(await recurringDetailOf(ctx, await pauseRecurringInvoice(ctx, params.id))),
  );

  r.post(
    `${P}/:id/resume`,
    {
      ...write,
      summary: 'Resume a recurring invoice',
      description:
        'Goes on at the first period whose day is today or later: the periods of the pause are not invoiced. 409 `recurring_invoice_ended` once ended.',
      params: IdParams,
      response: RecurringInvoiceView,
      errors: { 409: '`recurring_invoice_ended`' },
    },
    async ({ ctx, params }) =>
      RecurringInvoiceView.fromDetail(await recurringDetailOf(ctx, await resumeRecurringInvoice(ctx, params.id))),
  );
}
