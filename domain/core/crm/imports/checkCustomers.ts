import type { ImportRecordError } from '../../../../entities/core/crmImport';
import { newId } from '../../../../entities/base';
import type { TenantContext } from '../../../context';
import { primaryOf, searchTextOf } from '../contactDetails';
import { applyCustomValues } from '../customValues';
import { fieldDefinitions } from '../fieldDefinitions';
import { parseCustomerRecord } from './records';

/** A checked customer record as the upsert reads it (the columns of crm_customers it writes). */
export interface CustomerRow {
  id: string;
  /** The spreadsheet import creating the row (absent for the hub's imports). */
  import_id?: string;
  /** Null for spreadsheet rows without an external id (always created). */
  external_id: string | null;
  kind: string;
  name: string;
  roles: string[];
  tags: string[];
  emails: object[];
  phones: object[];
  addresses: object[];
  primary_email: string | null;
  custom: Record<string, unknown>;
  search_text: string;
  /**
   * `duplicates: 'update'` of a spreadsheet import: the existing customer this row updates (instead of creating
   * one), the fields the file gives (`fields`: kind, roles, tags, emails, phones, addresses; name and the custom
   * values given are always written), the lowered name of the search text, and the row's line.
   */
  update_id?: string;
  fields?: string[];
  search_name?: string;
  line?: number;
}

/**
 * Checks the records of a customer import once, when the call is accepted: the valid ones become rows ready
 * for PostgreSQL (ids are UUIDv7 made here, so they sort by creation like every other id), the others field
 * errors by index. Custom values are checked against the field definitions of that moment. A record
 * repeating an earlier externalId of the same call is refused.
 */
export async function checkCustomers(
  ctx: TenantContext,
  raw: unknown[],
): Promise<{ rows: CustomerRow[]; errors: ImportRecordError[] }> {
  const defs = await fieldDefinitions(ctx);
  const errors: ImportRecordError[] = [];
  const rows: CustomerRow[] = [];
  const seen = new Map<string, number>();
  raw.forEach((item, index) => {
    const parsed = parseCustomerRecord(item);
    if ('errors' in parsed) {
      for (const e of parsed.errors) errors.push({ index, externalId: parsed.externalId, ...e });
      return;
    }
    const { record } = parsed;
    const custom = applyCustomValues(defs, {}, record.custom);
    if (custom.errors.length) {
      for (const e of custom.errors) errors.push({ index, externalId: record.externalId, ...e });
      return;
    }
    const first = seen.get(record.externalId);
    if (first !== undefined) {
      errors.push({
        index,
        externalId: record.externalId,
        field: 'externalId',
        message: `repeats record ${first} of this call`,
      });
      return;
    }
    seen.set(record.externalId, index);
    rows.push({
      id: newId(),
      external_id: record.externalId,
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
    });
  });
  return { rows, errors };
}
