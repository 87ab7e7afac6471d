import '../../domain/core/invoices/crmExtensions';
import { failSubmission } from '../../domain/core/invoices/einvoice/failSubmission';
import { performSubmission } from '../../domain/core/invoices/einvoice/performSubmission';
import { pollLifecycles } from '../../domain/core/invoices/einvoice/pollLifecycles';
import { runEReporting } from '../../domain/core/invoices/ereporting/buildEReports';
import { failEReport, sendEReport } from '../../domain/core/invoices/ereporting/sendEReport';
import { failStatusMessage, sendStatusMessage } from '../../domain/core/invoices/lifecycle/sendStatusMessage';
import { einvoiceQueue } from '../../queues/einvoice';
import { defineProcessor } from '../define';

/**
 * Submits documents to the e-invoicing platform (retried with backoff, at most once each), polls their lifecycle,
 * reports the statuses the suite emits, builds the e-reports of closed periods and transmits them.
 */
export const einvoiceProcessor = defineProcessor(einvoiceQueue, {
  async perform(payload, { services }) {
    if (payload.kind === 'poll') return pollLifecycles(services);
    if (payload.kind === 'status') return sendStatusMessage(services, payload.tenantId, payload.messageId);
    if (payload.kind === 'ereporting')
      return runEReporting(services, payload.at ? new Date(payload.at) : new Date(), payload.tenantId);
    if (payload.kind === 'ereport') return sendEReport(services, payload.tenantId, payload.reportId);
    return performSubmission(services, payload.tenantId, payload.invoiceId);
  },
  async onFailed(payload, error, { services }) {
    if (payload.kind === 'status')
      await failStatusMessage(services, payload.tenantId, payload.messageId, error.message);
    if (payload.kind === 'ereport') await failEReport(services, payload.tenantId, payload.reportId, error.message);
    if (payload.kind === 'submit') await failSubmission(services, payload.tenantId, payload.invoiceId, error.message);
  },
});
