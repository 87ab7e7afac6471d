import '../../domain/core/invoices/crmExtensions';
import { failSubmission } from '../../domain/core/invoices/einvoice/failSubmission';
import { performSubmission } from '../../domain/core/invoices/einvoice/performSubmission';
import { pollLifecycles } from '../../domain/core/invoices/einvoice/pollLifecycles';
import { einvoiceQueue } from '../../queues/einvoice';
import { defineProcessor } from '../define';

/** Submits documents to the e-invoicing platform (retried with backoff, at most once each) and polls their lifecycle. */
export const einvoiceProcessor = defineProcessor(einvoiceQueue, {
  async perform(payload, { services }) {
    if (payload.kind === 'poll') return pollLifecycles(services);
    return performSubmission(services, payload.tenantId, payload.invoiceId);
  },
  async onFailed(payload, error, { services }) {
    if (payload.kind === 'submit') await failSubmission(services, payload.tenantId, payload.invoiceId, error.message);
  },
});
