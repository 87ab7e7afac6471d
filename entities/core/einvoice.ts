import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';

/**
 * Lifecycle of an electronic invoice on the platform (PDP/PPF), after the French e-invoicing lifecycle:
 * queued (we hold it), submitted (déposée), rejected (rejetée: refused by the platform, final), delivered
 * (mise à disposition), received (prise en charge), approved (approuvée), disputed (en litige), refused
 * (refusée by the buyer, final), paid (encaissée, final); failed: we could not submit it after every retry.
 */
export const einvoiceStatuses = [
  'queued',
  'submitted',
  'rejected',
  'delivered',
  'received',
  'approved',
  'disputed',
  'refused',
  'paid',
  'failed',
] as const;
export type EInvoiceStatus = (typeof einvoiceStatuses)[number];

/** Statuses after which the platform has nothing more to report: the lifecycle poll stops reading them. */
export const finalEInvoiceStatuses: readonly EInvoiceStatus[] = ['rejected', 'refused', 'paid', 'failed'];
/** The final statuses as SQL literals, for statements the partial poll index must match. */
export const finalEInvoiceStatusList = finalEInvoiceStatuses.map((s) => `'${s}'`).join(', ');

/** Longest error or event detail kept (lastError, detail). */
export const EINVOICE_TEXT_LENGTH = 1000;

/**
 * One submission per invoice (unique): submitting again answers the existing one. The lifecycle poll reads the
 * open ones (on the platform, not final) least recently polled first: `inv_einvoice_submissions_poll_index`.
 */
export const EInvoiceSubmission = defineEntity({
  name: 'EInvoiceSubmission',
  tableName: 'inv_einvoice_submissions',
  filters: tenantFilter,
  uniques: [{ properties: ['invoiceId'] }],
  indexes: [
    {
      name: 'inv_einvoice_submissions_poll_index',
      expression: `create index "inv_einvoice_submissions_poll_index" on "inv_einvoice_submissions" ("polled_at" asc nulls first, "id") where "platform_id" is not null and "status" not in (${finalEInvoiceStatusList})`,
    },
    // The reconciliation's look-up of submissions waiting for their job (domain/core/invoices/einvoice/redriveSubmissions.ts).
    {
      name: 'inv_einvoice_submissions_queued_index',
      expression: `create index "inv_einvoice_submissions_queued_index" on "inv_einvoice_submissions" ("updated_at") where "status" = 'queued'`,
    },
  ],
  properties: {
    ...tenantColumns(),
    updatedAt: updatedAt(),
    invoiceId: p.uuid(),
    status: p.enum([...einvoiceStatuses]),
    /** Name of the platform it went to (EINVOICE_PLATFORM_NAME). */
    platform: p.string().length(60),
    /** The platform's id of the document once it accepted it: set once, never sent again after. */
    platformId: p.string().length(200).nullable(),
    submittedAt: p.datetime().nullable(),
    attempts: p.integer().default(0),
    lastError: p.string().length(EINVOICE_TEXT_LENGTH).nullable(),
    /** When the lifecycle poll last read it (or tried to: a failed read counts), null before the first poll. */
    polledAt: p.datetime().nullable(),
  },
});
export type EInvoiceSubmission = InferEntity<typeof EInvoiceSubmission>;

/** The history of a submission's statuses, oldest first. `platformEventId` dedupes what the platform reports twice. */
export const EInvoiceEvent = defineEntity({
  name: 'EInvoiceEvent',
  tableName: 'inv_einvoice_events',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'invoiceId', 'occurredAt', 'id'] }],
  uniques: [{ properties: ['invoiceId', 'platformEventId'] }],
  properties: {
    ...tenantColumns(),
    invoiceId: p.uuid(),
    status: p.enum([...einvoiceStatuses]),
    occurredAt: p.datetime(),
    detail: p.string().length(EINVOICE_TEXT_LENGTH).nullable(),
    platformEventId: p.string().length(200).nullable(),
  },
});
export type EInvoiceEvent = InferEntity<typeof EInvoiceEvent>;
