import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';
import { CrmImport } from './crmImport';

/**
 * A spreadsheet (CSV) a member uploaded to import customers: what was read of it (encoding, delimiter, header,
 * row count) and, once started, the import it became (crm_imports). Its rows wait in crm_import_upload_rows
 * until the import starts (they are then stored as checked rows of the import and deleted).
 */
export const CrmImportUpload = defineEntity({
  name: 'CrmImportUpload',
  tableName: 'crm_import_uploads',
  filters: tenantFilter,
  properties: {
    ...tenantColumns(),
    updatedAt: updatedAt(),
    createdBy: p.uuid().nullable(),
    fileName: p.string().length(200).nullable(),
    encoding: p.string().length(20),
    delimiter: p.string().length(1),
    columns: p.json<string[]>(),
    rows: p.integer(),
    bytes: p.bigint('number'),
    importId: () => p.manyToOne(CrmImport).mapToPk().fieldName('import_id').nullable().deleteRule('set null'),
  },
});
export type CrmImportUpload = InferEntity<typeof CrmImportUpload>;

/** An upload's rows in parts of up to IMPORT_PART rows: the JSON text of { lines, cells } as bytes. */
export const CrmImportUploadRows = defineEntity({
  name: 'CrmImportUploadRows',
  tableName: 'crm_import_upload_rows',
  properties: {
    uploadId: () => p.manyToOne(CrmImportUpload).mapToPk().fieldName('upload_id').primary().deleteRule('cascade'),
    part: p.integer().primary(),
    /** Line of the file the part's first row ends on (the header is line 1). */
    firstLine: p.integer(),
    cells: p.blob(),
  },
});
export type CrmImportUploadRows = InferEntity<typeof CrmImportUploadRows>;
