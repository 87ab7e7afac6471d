import { LockMode } from '@mikro-orm/core';
import { isUUID } from 'class-validator';
import { CrmImportUpload } from '../../../../entities/core/crmImportUpload';
import type { ImportRecordError } from '../../../../entities/core/crmImport';
import { badRequest, conflict, notFound } from '../../../../lib/errors';
import type { TenantContext } from '../../../context';
import type { FieldDefinitions } from '../customValues';
import { fieldDefinitions } from '../fieldDefinitions';
import { uploadPart, uploadPartNumbers } from '../store/importUploads';
import { matchExisting, type ExistingMatch } from './matchExisting';
import type { CustomerRow } from './checkCustomers';
import { checkMapping, type SheetTarget } from './sheet';
import { sheetCustomerRow } from './sheetRow';

/** Most refused rows an answer lists (all are counted). */
export const MAX_LISTED_ERRORS = 200;

/** An upload of the organisation, read completely and not imported yet (404 otherwise; 409 once imported). */
export async function openUpload(ctx: TenantContext, id: string, lock = false): Promise<CrmImportUpload> {
  const upload = isUUID(id)
    ? await ctx.em.findOne(CrmImportUpload, { id }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {})
    : null;
  if (!upload || upload.rows < 0) throw notFound('Upload');
  if (upload.importId) throw conflict('upload_imported', `This file was imported already (import ${upload.importId})`);
  return upload;
}

/** The mapping checked against the upload's header and the organisation's fields (400 with every problem). */
export async function checkedMapping(
  ctx: TenantContext,
  upload: CrmImportUpload,
  mapping: string[],
): Promise<{ defs: FieldDefinitions; mapping: SheetTarget[] }> {
  const defs = await fieldDefinitions(ctx);
  const problems = checkMapping(defs, upload.columns, mapping);
  if (problems.length)
    throw badRequest(
      'mapping_invalid',
      'The mapping does not fit the file',
      problems.map((message) => ({ field: 'mapping', message })),
    );
  return { defs, mapping: mapping as SheetTarget[] };
}

export interface ScanOutcome {
  valid: number;
  invalid: number;
  neutralised: number;
  /** Refused rows (the first MAX_LISTED_ERRORS), `index` being the line of the file. */
  errors: ImportRecordError[];
  /** Valid rows that match existing customers (domain/core/crm/duplicates): counted, the first MAX_LISTED_ERRORS listed. */
  matched: number;
  matches: (ExistingMatch & { action: DuplicateRowPolicy })[];
  /** Matching rows left out (`duplicates: 'skip'`), listed in `errors` with field `duplicate`. */
  skipped: number;
  /** Matching rows that update their customer (`duplicates: 'update'`). */
  updating: number;
}

/**
 * What an import does with a row matching an existing customer: create it anyway (default), skip it, or update
 * the customer with the fields the file gives.
 */
export type DuplicateRowPolicy = 'create' | 'skip' | 'update';

/**
 * Checks every row of an upload, part by part (one part in memory at a time), handing each part's valid rows to
 * `onPart` (in the order of the file). A row repeating an earlier row's external id is refused.
 */
export async function scanUpload(
  ctx: TenantContext,
  upload: CrmImportUpload,
  defs: FieldDefinitions,
  mapping: SheetTarget[],
  importId: string,
  onPart?: (part: number, rows: CustomerRow[]) => Promise<void>,
  duplicates: DuplicateRowPolicy = 'create',
): Promise<ScanOutcome> {
  const out: ScanOutcome = {
    valid: 0,
    invalid: 0,
    neutralised: 0,
    errors: [],
    matched: 0,
    matches: [],
    skipped: 0,
    updating: 0,
  };
  const seen = new Map<string, number>();
  /** Customers updated by a row of the file (`update`), and that row's line: a customer is updated once. */
  const claimed = new Map<string, number>();
  const refuse = (line: number, externalId: string | null, field: string, message: string) => {
    if (out.errors.length < MAX_LISTED_ERRORS) out.errors.push({ index: line, externalId, field, message });
  };
  for (const number of await uploadPartNumbers(ctx.em, upload.id)) {
    const part = await uploadPart(ctx.em, upload.id, number);
    if (!part) continue;
    let rows: CustomerRow[] = [];
    const lines: number[] = [];
    const present = new Map<string, string[]>();
    part.cells.forEach((cells, i) => {
      const line = part.lines[i] ?? 0;
      const checked = sheetCustomerRow(defs, mapping, cells, importId);
      if ('errors' in checked) {
        out.invalid++;
        for (const e of checked.errors) refuse(line, null, e.field, e.message);
        return;
      }
      const { row } = checked;
      if (row.external_id !== null) {
        const first = seen.get(row.external_id);
        if (first !== undefined) {
          out.invalid++;
          refuse(line, row.external_id, 'externalId', `repeats line ${first} of this file`);
          return;
        }
        seen.set(row.external_id, line);
      }
      out.valid++;
      out.neutralised += checked.neutralised;
      present.set(row.id, checked.present);
      rows.push(row);
      lines.push(line);
    });
    // Rows updating by external id are that customer already; the others are compared (one statement a part).
    const found = await matchExisting(
      ctx,
      rows.filter((r) => r.external_id === null),
      lines.filter((_, i) => rows[i].external_id === null),
    );
    out.matched += found.length;
    const dropped = new Set<string>();
    for (const m of found) {
      let action = duplicates;
      if (duplicates === 'skip') {
        dropped.add(m.rowId);
        out.skipped++;
        refuse(m.index, null, 'duplicate', `matches customer ${m.customerId} (${m.reasons.join(', ')}); skipped`);
      } else if (duplicates === 'update') {
        const earlier = claimed.get(m.customerId);
        if (earlier !== undefined) {
          dropped.add(m.rowId);
          out.invalid++;
          refuse(m.index, null, 'duplicate', `matches customer ${m.customerId}, which line ${earlier} updates already`);
          continue;
        }
        claimed.set(m.customerId, m.index);
        const row = rows.find((r) => r.id === m.rowId)!;
        Object.assign(row, {
          update_id: m.customerId,
          fields: present.get(row.id) ?? [],
          search_name: row.name.toLowerCase(),
          line: m.index,
        });
        out.updating++;
        action = 'update';
      }
      if (out.matches.length < MAX_LISTED_ERRORS) out.matches.push({ ...m, action });
    }
    if (dropped.size) {
      rows = rows.filter((r) => !dropped.has(r.id));
      out.valid -= dropped.size;
    }
    if (onPart && rows.length) await onPart(number, rows);
  }
  return out;
}
