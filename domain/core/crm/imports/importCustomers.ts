import type { ImportRecordError } from '../../../../entities/core/crmImport';
import { newId } from '../../../../entities/base';
import type { TenantContext } from '../../../context';
import { primaryOf, searchTextOf } from '../contactDetails';
import { applyCustomValues, fieldDefinitions } from '../customFields';
import type { ImportOutcome } from './runImport';
import { parseCustomerRecord } from './records';
import { bound } from '../sql';

/** Rows per INSERT: one multi-row statement per chunk keeps each statement well under a second. */
export const IMPORT_CHUNK = 500;

/**
 * Upserts customer records by (tenant, externalId) with multi-row INSERT ... ON CONFLICT: a new externalId
 * creates a customer, a known one has its imported fields replaced (kind, name, roles, tags, emails, phones,
 * addresses) and its custom values merged; owner, activities, relations and deals stay. A replay therefore
 * changes nothing twice. A record repeating an earlier externalId of the same call is refused.
 */
export async function importCustomers(ctx: TenantContext, raw: unknown[]): Promise<ImportOutcome> {
  const defs = await fieldDefinitions(ctx);
  const errors: ImportRecordError[] = [];
  // Rows as the upsert reads them, built while checking (ids are UUIDv7 made here).
  const rows: object[] = [];
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
      errors.push({ index, externalId: record.externalId, field: 'externalId', message: `repeats record ${first} of this call` });
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

  let created = 0;
  const now = new Date();
  for (let at = 0; at < rows.length; at += IMPORT_CHUNK) {
    const [row] = await bound<{ created: number }>(ctx.em, UPSERT, [ctx.tenantId, now, now, JSON.stringify(rows.slice(at, at + IMPORT_CHUNK))]);
    created += row.created;
  }
  // GIN indexes take new entries into a pending list that every read of the index scans linearly until it is
  // merged: after thousands of rows a custom-value or tag filter got ten times slower. The import merges it now,
  // so the lists read after it do not pay for it.
  if (rows.length) await bound(ctx.em, `select gin_clean_pending_list(i::regclass) from unnest(array[${GIN_INDEXES.map((i) => `'${i}'`).join(', ')}]) i`, []);
  return { created, updated: rows.length - created, errors: errors.sort((a, b) => a.index - b.index) };
}

const GIN_INDEXES = ['crm_customers_roles_gin', 'crm_customers_tags_gin', 'crm_customers_custom_gin', 'crm_customers_search_trgm'];

/**
 * One multi-row upsert of a chunk, the rows travelling as one JSON document (ids are UUIDv7 made here, so they
 * sort by creation like every other id); JSON arrays become the text[] columns directly. `xmax = 0` tells an
 * inserted row from an updated one, counted in the statement.
 */
const UPSERT = `
with up as (
insert into crm_customers (tenant_id, created_at, updated_at, id, external_id, kind, name, roles, tags, emails, phones, addresses, primary_email, custom, search_text)
select ?::uuid, ?::timestamptz, ?::timestamptz, r.id, r.external_id, r.kind, r.name, r.roles, r.tags,
       r.emails, r.phones, r.addresses, r.primary_email, r.custom, r.search_text
  from jsonb_to_recordset(?::jsonb)
       as r(id uuid, external_id text, kind text, name text, roles text[], tags text[], emails jsonb, phones jsonb, addresses jsonb, primary_email text, custom jsonb, search_text text)
on conflict (tenant_id, external_id) do update set
  updated_at = excluded.updated_at, kind = excluded.kind, name = excluded.name, roles = excluded.roles, tags = excluded.tags,
  emails = excluded.emails, phones = excluded.phones, addresses = excluded.addresses, primary_email = excluded.primary_email,
  custom = crm_customers.custom || excluded.custom, search_text = excluded.search_text
returning (xmax = 0) as inserted)
select count(*) filter (where inserted)::int as created from up`;
