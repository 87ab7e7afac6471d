import type { ImportRecordError, ImportStatus } from '../../../../entities/core/crmImport';
import type { Em } from '../../../../lib/db';
import type { CustomerRow } from '../imports/checkCustomers';
import { bound } from './sql';

/** The rows of an uploaded spreadsheet, one stored part (the JSON text of its cells and lines, as bytes). */
export async function storeUploadPart(
  em: Em,
  uploadId: string,
  part: number,
  lines: number[],
  cells: string[][],
): Promise<void> {
  await bound(em, 'insert into crm_import_upload_rows (upload_id, part, first_line, cells) values (?, ?, ?, ?)', [
    uploadId,
    part,
    lines[0] ?? 0,
    Buffer.from(JSON.stringify({ lines, cells })),
  ]);
}

/** The numbers of an upload's stored parts, in order. */
export const uploadPartNumbers = async (em: Em, uploadId: string): Promise<number[]> =>
  (
    await bound<{ part: number }>(em, 'select part from crm_import_upload_rows where upload_id = ? order by part', [
      uploadId,
    ])
  ).map((r) => r.part);

/** One stored part of an upload: its rows' cells and the line of the file each row ends on. */
export async function uploadPart(
  em: Em,
  uploadId: string,
  part: number,
): Promise<{ lines: number[]; cells: string[][] } | null> {
  const [row] = await bound<{ cells: Buffer }>(
    em,
    'select cells from crm_import_upload_rows where upload_id = ? and part = ?',
    [uploadId, part],
  );
  return row ? (JSON.parse(row.cells.toString()) as { lines: number[]; cells: string[][] }) : null;
}

export async function deleteUploadRows(em: Em, uploadId: string): Promise<void> {
  await bound(em, 'delete from crm_import_upload_rows where upload_id = ?', [uploadId]);
}

/** Stores one part of checked customer rows of an import (the worker upserts it: store/imports.ts). */
export async function storeCheckedPart(em: Em, importId: string, part: number, rows: CustomerRow[]): Promise<void> {
  await bound(em, 'insert into crm_import_payloads (import_id, part, records, checked) values (?, ?, ?, true)', [
    importId,
    part,
    Buffer.from(JSON.stringify(rows)),
  ]);
}

/** The status of an import now (null when there is none). */
export async function importStatusOf(em: Em, tenantId: string, importId: string): Promise<ImportStatus | null> {
  const [row] = await bound<{ status: ImportStatus }>(
    em,
    'select status from crm_imports where id = ? and tenant_id = ?',
    [importId, tenantId],
  );
  return row ? row.status : null;
}

/** Moves an import from one of `from` to `to`; whether it did (a concurrent change wins, once). */
export async function moveImportStatus(
  em: Em,
  tenantId: string,
  importId: string,
  from: ImportStatus[],
  to: ImportStatus,
  finished = false,
): Promise<boolean> {
  const rows = await bound<{ id: string }>(
    em,
    `update crm_imports set status = ?, updated_at = now(), finished_at = case when ? then now() else finished_at end
      where id = ? and tenant_id = ? and status = any(?::text[]) returning id`,
    [to, finished, importId, tenantId, from],
  );
  return rows.length > 0;
}

/** Adds a whole-import note to the refused records of an import (why it stopped). */
export async function noteImport(em: Em, tenantId: string, importId: string, note: ImportRecordError): Promise<void> {
  await bound(em, 'update crm_imports set errors = errors || ?::jsonb where id = ? and tenant_id = ?', [
    JSON.stringify([note]),
    importId,
    tenantId,
  ]);
}

/** Deletes the customers an import created, in one statement (their activities, relations and scores cascade). */
export async function deleteImportedCustomers(em: Em, tenantId: string, importId: string): Promise<number> {
  const rows = await bound<{ n: number }>(
    em,
    'with gone as (delete from crm_customers where tenant_id = ? and import_id = ? returning 1) select count(*)::int as n from gone',
    [tenantId, importId],
  );
  return rows[0]?.n ?? 0;
}
