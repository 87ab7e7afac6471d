import { newId } from '../../../../entities/base';
import type { FieldError } from '../../../../lib/errors';
import { primaryOf, searchTextOf } from '../contactDetails';
import { applyCustomValues, type FieldDefinitions } from '../customValues';
import type { CustomerRow } from './checkCustomers';
import { parseCustomerRecord } from './records';
import { rowRecord, type SheetTarget } from './sheet';

/** Stands for an absent external id while the record rules (which require one) check the rest. */
const NO_EXTERNAL_ID = '\u0000sheet';

/** The fields a row updating a customer writes when the file gives them (name and custom values: always). */
const UPDATABLE = ['kind', 'roles', 'tags', 'emails', 'phones', 'addresses'] as const;

/**
 * One spreadsheet row as a checked customer row of the bulk import (the rules of records.ts and of the custom
 * fields), or its field errors. A row without an external id is always created (external_id null).
 */
export function sheetCustomerRow(
  defs: FieldDefinitions,
  mapping: SheetTarget[],
  cells: string[],
  importId: string,
): { row: CustomerRow; neutralised: number; present: string[] } | { errors: FieldError[] } {
  const mapped = rowRecord(defs, mapping, cells);
  if ('error' in mapped) return { errors: [mapped.error] };
  const { record: raw, neutralised } = mapped;
  const parsed = parseCustomerRecord({ externalId: NO_EXTERNAL_ID, ...raw });
  if ('errors' in parsed) return { errors: parsed.errors };
  const { record } = parsed;
  const custom = applyCustomValues(defs, {}, record.custom);
  if (custom.errors.length) return { errors: custom.errors };
  return {
    neutralised,
    present: UPDATABLE.filter((field) => raw[field] !== undefined),
    row: {
      id: newId(),
      import_id: importId,
      external_id: record.externalId === NO_EXTERNAL_ID ? null : record.externalId,
      kind: record.kind,
      name: record.name,
      roles: record.roles,
      tags: record.tags,
      emails: record.emails,
      phones: record.phones,
      addresses: record.addresses,
      primary_email: primaryOf(record.emails),
      custom: custom.values,
      search_text: searchTextOf(record.name, record.emails, record.phones),
    },
  };
}
