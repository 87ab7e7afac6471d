import { defineQueue } from './define';
import type { ImportKind } from '../entities/core/crmImport';

/** One bulk import call of the integration hub; its records wait in crm_import_payloads. */
export interface CrmImportJob {
  importId: string;
  tenantId: string;
  kind: ImportKind;
}

/**
 * Bulk imports (up to 10,000 records a job, written with multi-row upserts). Idempotent: records upsert by
 * externalId, so a retried job updates what its first attempt wrote; the outcome lives in crm_imports.
 */
export const crmImportQueue = defineQueue<CrmImportJob>('crm-import', {
  // A customer import is mostly PostgreSQL's work (the stored rows are read and upserted by statements, not by
  // the worker): two at a time keep two backends, i.e. both cores of a small server, busy; more only queue on them.
  concurrency: 2,
  defaults: {
    attempts: 3,
    backoff: { type: 'exponential', delay: 2000 },
    removeOnComplete: true,
    removeOnFail: { age: 24 * 3600 },
  },
});

/** Recomputes the stored health scores of a batch of customers of one organisation. */
export interface CrmHealthJob {
  tenantId: string;
  customerIds: string[];
}

export const crmHealthQueue = defineQueue<CrmHealthJob>('crm-health', {
  concurrency: 4,
  defaults: { attempts: 5, removeOnComplete: true },
});

/** The clock's nightly pass: enqueues crm-health batches for every customer of every organisation. */
export const crmHealthNightlyQueue = defineQueue<{ slot: string }>('crm-health-nightly', {
  concurrency: 1,
  defaults: { attempts: 3, removeOnComplete: { count: 30 } },
});

/** Purges the stored values of a deleted custom field (unless the field was defined again meanwhile). */
export interface CrmFieldPurgeJob {
  tenantId: string;
  key: string;
}

export const crmFieldPurgeQueue = defineQueue<CrmFieldPurgeJob>('crm-field-purge', {
  concurrency: 1,
  defaults: { attempts: 5, removeOnComplete: true },
});
