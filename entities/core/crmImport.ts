import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';

export const importKinds = ['customers', 'deals'] as const;
export type ImportKind = (typeof importKinds)[number];
/** paused, cancelled and undone: spreadsheet imports of members (the hub's imports never are). */
export const importStatuses = ['queued', 'running', 'paused', 'completed', 'failed', 'cancelled', 'undone'] as const;
export type ImportStatus = (typeof importStatuses)[number];

/** A refused record of an import: its index in the call's `records`, its externalId when readable, why. */
export interface ImportRecordError {
  index: number;
  externalId: string | null;
  field: string;
  message: string;
}

/** A row of a spreadsheet import matching an existing customer, and what the import does with it. */
export interface ImportRowMatch {
  /** The line of the file. */
  index: number;
  customerId: string;
  reasons: string[];
  action: 'create' | 'skip' | 'update';
}

/** One bulk import call of the integration hub and its outcome (the records themselves travel in the job). */
export const CrmImport = defineEntity({
  name: 'CrmImport',
  tableName: 'crm_imports',
  filters: tenantFilter,
  // The reconciliation's look-up of imports not finished (domain/core/crm/imports/redriveImports.ts).
  indexes: [
    {
      name: 'crm_imports_open_index',
      expression: `create index "crm_imports_open_index" on "crm_imports" ("created_at") where "status" in ('queued', 'running')`,
    },
  ],
  properties: {
    ...tenantColumns(),
    updatedAt: updatedAt(),
    kind: p.enum([...importKinds]),
    status: p.enum([...importStatuses]).default('queued'),
    total: p.integer(),
    created: p.integer().default(0),
    updated: p.integer().default(0),
    failed: p.integer().default(0),
    errors: p.json<ImportRecordError[]>().default([]),
    /** Spreadsheet rows matching existing customers (the first 200) and the action taken on each. */
    matches: p.json<ImportRowMatch[]>().default([]),
    apiKeyId: p.uuid().nullable(),
    finishedAt: p.datetime().nullable(),
  },
});
export type CrmImport = InferEntity<typeof CrmImport>;

/**
 * The records of an import waiting for its worker (deleted once processed). They wait in PostgreSQL rather
 * than in the job: a 10,000-record call is megabytes, which Redis should not hold nor the request path send it.
 * The bytes of their JSON text (bytea, stored uncompressed): PostgreSQL stores them without checking or
 * converting text; checked customer rows are read by PostgreSQL itself, deal records parsed by the worker.
 */
export const CrmImportPayload = defineEntity({
  name: 'CrmImportPayload',
  tableName: 'crm_import_payloads',
  properties: {
    importId: () => p.manyToOne(CrmImport).mapToPk().fieldName('import_id').primary().deleteRule('cascade'),
    /** Checked customer rows are stored in parts the worker upserts one by one; unchecked records in part 0. */
    part: p.integer().primary(),
    /** Rows checked when the call was accepted (customers), or records the worker checks (deals). */
    checked: p.boolean().default(false),
    records: p.blob(),
  },
});
export type CrmImportPayload = InferEntity<typeof CrmImportPayload>;
