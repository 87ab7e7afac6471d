import '../../domain/core/invoices/crmExtensions';
import { failSubmission } from '../../domain/core/invoices/einvoice/failSubmission';
import { performSubmission } from '../../domain/core/invoices/einvoice/performSubmission';
import { pollLifecycles } from '../../domain/core/invoices/einvoice/pollLifecycles';
import { failStatusMessage, sendStatusMessage } from '../../domain/core/invoices/lifecycle/sendStatusMessage';
import { einvoiceQueue } from '../../queues/einvoice';
import { defineProcessor } from '../define';

/** Submits documents to the e-invoicing platform (retried with backoff, at most once each) polls their lifecycle and reports the statuses the suite emits. */
export const einvoiceProcessor = defineProcessor(einvoiceQueue, {
  async perform(payload, { services }) {
    if (payload.kind === 'poll') return pollLifecycles(services);
    if (payload.kind === 'status') return sendStatusMessage(services, payload.tenantId, payload.messageId);
    return performSubmission(services, payload.tenantId, payload.invoiceId);
  },
  async onFailed(payload, error, { services }) {
    if (payload.kind === 'status')
      await failStatusMessage(services, payload.tenantId, payload.messageId, error.message);
    if (payload.kind === 'submit') await failSubmission(services, payload.tenantId, payload.invoiceId, error.message);
  },
});
