import type { ImportKind, ImportRecordError } from '../../../../entities/core/crmImport';
import type { Em } from '../../../../lib/db';
import { bound } from './sql';

/**
 * Rows of a checked customer import per stored part: the worker upserts one part per statement and
 * transaction, so a statement stays well under a second and a crash redoes only the parts not yet committed.
 */
export const IMPORT_PART = 1000;

/**
 * Stores the records of an import as the bytes of their JSON text (bytea, sent in binary): checked customer
 * rows in parts of IMPORT_PART, which PostgreSQL reads itself (the worker never parses them); deal records,
 * not checked yet, in one part.
 */
export async function storePayload(em: Em, importId: string, records: unknown[], checked: boolean): Promise<void> {
  const parts: Buffer[] = [];
  if (!checked) parts.push(Buffer.from(JSON.stringify(records)));
  else
    for (let at = 0; at < records.length; at += IMPORT_PART)
      parts.push(Buffer.from(JSON.stringify(records.slice(at, at + IMPORT_PART))));
  if (!parts.length) return;
  const values = parts.map(() => '(?, ?, ?, ?)').join(', ');
  await bound(
    em,
    `insert into crm_import_payloads (import_id, part, records, checked) values ${values}`,
    parts.flatMap((bytes, part) => [importId, part, bytes, checked]),
  );
}

/** The stored parts of an import, in order. */
export const payloadParts = (em: Em, importId: string) =>
  bound<{ part: number }>(em, 'select part from crm_import_payloads where import_id = ? order by part', [importId]);

/** One stored part still left of an import, if any. */
export async function anyPartLeft(em: Em, importId: string): Promise<number | null> {
  const [left] = await bound<{ part: number }>(em, 'select part from crm_import_payloads where import_id = ? limit 1', [
    importId,
  ]);
  return left ? left.part : null;
}

/** The records stored unchecked by an earlier version (a customer import), or null. */
export async function uncheckedRecords(em: Em, importId: string): Promise<unknown[] | null> {
  const [legacy] = await bound<{ records: Buffer }>(
    em,
    'select records from crm_import_payloads where import_id = ? and not checked',
    [importId],
  );
  return legacy ? (JSON.parse(legacy.records.toString()) as unknown[]) : null;
}

/** The records of a deal import (stored in one part); none when the part is gone. */
export async function dealRecords(em: Em, importId: string): Promise<unknown[]> {
  const [payload] = await bound<{ records: Buffer }>(
    em,
    'select records from crm_import_payloads where import_id = ?',
    [importId],
  );
  return payload ? (JSON.parse(payload.records.toString()) as unknown[]) : [];
}

export async function deletePayload(em: Em, importId: string): Promise<void> {
  await bound(em, 'delete from crm_import_payloads where import_id = ?', [importId]);
}

/** Replaces the refused records of an import (and their count). */
export async function setImportErrors(
  em: Em,
  tenantId: string,
  importId: string,
  errors: ImportRecordError[],
): Promise<void> {
  await bound(em, 'update crm_imports set failed = ?, errors = ?::jsonb where id = ? and tenant_id = ?', [
    errors.length,
    JSON.stringify(errors),
    importId,
    tenantId,
  ]);
}

/** The status of an import, its row locked until the transaction ends (null when there is none). */
export async function lockImportStatus(em: Em, tenantId: string, importId: string): Promise<string | null> {
  const [current] = await bound<{ status: string }>(
    em,
    'select status from crm_imports where id = ? and tenant_id = ? for update',
    [importId, tenantId],
  );
  return current ? current.status : null;
}

/** Marks an import completed with its outcome. */
export async function completeImportRow(
  em: Em,
  tenantId: string,
  importId: string,
  outcome: { created: number; updated: number; errors: ImportRecordError[] },
): Promise<void> {
  await bound(
    em,
    `update crm_imports set status = 'completed', created = ?, updated = ?, failed = ?, errors = ?::jsonb, finished_at = ?, updated_at = ? where id = ? and tenant_id = ?`,
    [
      outcome.created,
      outcome.updated,
      outcome.errors.length,
      JSON.stringify(outcome.errors),
      new Date(),
      new Date(),
      importId,
      tenantId,
    ],
  );
}

/**
 * Marks an import still queued or running failed: `failed` counts every record not written, `error` is added to
 * the refused records.
 */
export async function failImportRow(
  em: Em,
  tenantId: string,
  importId: string,
  error: ImportRecordError,
): Promise<void> {
  await bound(
    em,
    `update crm_imports set status = 'failed', finished_at = now(), updated_at = now(), failed = greatest(total - created - updated, 0), errors = errors || ?::jsonb
      where id = ? and tenant_id = ? and status in ('queued', 'running')`,
    [JSON.stringify([error]), importId, tenantId],
  );
}

/** Imports of every organisation accepted between two days and `minAgeMs` ago, still queued or running, oldest first. */
export async function openImports(
  em: Em,
  minAgeMs: number,
  limit: number,
): Promise<{ id: string; tenant_id: string; kind: ImportKind }[]> {
  return em.execute<{ id: string; tenant_id: string; kind: ImportKind }[]>(
    `select id, tenant_id, kind from crm_imports where status in ('queued', 'running') and created_at > now() - interval '2 days' and created_at < now() - ? * interval '1 millisecond' order by created_at limit ${limit}`,
    [minAgeMs],
  );
}

/**
 * Upserts one stored part of a customer import in one statement (see UPSERT_PART), with synchronous_commit off
 * for its transaction only: its commit may be lost if PostgreSQL crashes in the next few milliseconds, but then
 * so is the deletion of its stored rows (same transaction), and the job, not yet completed, is retried and upserts
 * them again (idempotent by externalId). The import is marked completed by a synchronous commit afterwards, which
 * makes every earlier commit durable (the WAL is flushed in order).
 */
export async function upsertCustomerPart(
  em: Em,
  tenantId: string,
  importId: string,
  part: number,
  now: Date,
): Promise<void> {
  await em.getKnex().transaction(async (trx) => {
    await trx.raw('set local synchronous_commit = off');
    await trx.raw(UPSERT_PART, [
      importId,
      part,
      tenantId,
      now,
      now,
      tenantId,
      now,
      tenantId,
      importId,
      part,
      now,
      importId,
      tenantId,
    ]);
  });
}

/**
 * GIN indexes take new entries into a pending list that every read of the index scans linearly until it is
 * merged: after thousands of rows a custom-value or tag filter got ten times slower. An import merges it when
 * done, so the lists read after it do not pay for it (as the indexes' owner:
 * Migration20261210000100_crm_gin_clean_definer).
 */
export async function mergeCustomerIndexPending(em: Em): Promise<void> {
  await bound(em, 'select crm_customers_clean_gin_pending()', []);
}

/**
 * One part, in one statement: PostgreSQL reads the stored JSON rows itself (JSON arrays become the text[]
 * columns directly), upserts them, deletes the part and adds its counts to the import (only if this statement
 * deleted it: a job run twice at once counts each part once). `xmax = 0` tells an inserted row from an updated
 * one; a known externalId counts as updated even when nothing changed. A row with `update_id` (a spreadsheet's
 * `duplicates: 'update'`) updates that live customer instead: name and custom values (merged), and each of kind,
 * roles, tags, e-mails, phones, addresses that the file gave (`fields`), the search text made again from the
 * result (as contactDetails.searchTextOf does; the name part lowered by the app); it never marks the customer as
 * the import's (an undo leaves it). One whose customer was deleted or merged since is counted failed and reported.
 */
const UPSERT_PART = `
with r as materialized (
  select r.* from crm_import_payloads p,
    jsonb_to_recordset(convert_from(p.records, 'UTF8')::jsonb)
    as r(id uuid, import_id uuid, external_id text, kind text, name text, roles text[], tags text[], emails jsonb, phones jsonb, addresses jsonb, primary_email text, custom jsonb, search_text text,
         update_id uuid, fields text[], search_name text, line int)
  where p.import_id = ? and p.part = ?),
up as (
  insert into crm_customers as c (tenant_id, created_at, updated_at, id, import_id, external_id, kind, name, roles, tags, emails, phones, addresses, primary_email, custom, search_text)
  select ?::uuid, ?::timestamptz, ?::timestamptz, r.id, r.import_id, r.external_id, r.kind, r.name, r.roles, r.tags,
         r.emails, r.phones, r.addresses, r.primary_email, r.custom, r.search_text
    from r where r.update_id is null
  on conflict (tenant_id, external_id) do update set
    updated_at = excluded.updated_at, kind = excluded.kind, name = excluded.name, roles = excluded.roles, tags = excluded.tags,
    emails = excluded.emails, phones = excluded.phones, addresses = excluded.addresses, primary_email = excluded.primary_email,
    custom = c.custom || excluded.custom, search_text = excluded.search_text
  where (c.kind, c.name, c.roles, c.tags, c.emails, c.phones, c.addresses) is distinct from (excluded.kind, excluded.name, excluded.roles, excluded.tags, excluded.emails, excluded.phones, excluded.addresses)
     or not c.custom @> excluded.custom
  returning (xmax = 0) as inserted),
u as (
  select r.*, case when 'emails' = any(r.fields) then r.emails else c.emails end as new_emails,
         case when 'phones' = any(r.fields) then r.phones else c.phones end as new_phones
    from r join crm_customers c on c.id = r.update_id and c.tenant_id = ?::uuid and c.merged_into is null
   where r.update_id is not null),
upd as (
  update crm_customers c set updated_at = ?::timestamptz, name = u.name, custom = c.custom || u.custom,
    kind = case when 'kind' = any(u.fields) then u.kind else c.kind end,
    roles = case when 'roles' = any(u.fields) then u.roles else c.roles end,
    tags = case when 'tags' = any(u.fields) then u.tags else c.tags end,
    emails = u.new_emails, phones = u.new_phones,
    addresses = case when 'addresses' = any(u.fields) then u.addresses else c.addresses end,
    primary_email = case when 'emails' = any(u.fields) then u.primary_email else c.primary_email end,
    search_text = concat_ws(' ', nullif(u.search_name, ''),
      (select string_agg(nullif(e->>'value', ''), ' ') from jsonb_array_elements(u.new_emails) e),
      (select string_agg(nullif(regexp_replace(ph->>'value', '[^0-9]', '', 'g'), ''), ' ') from jsonb_array_elements(u.new_phones) ph))
  from u where c.id = u.update_id and c.tenant_id = ?::uuid
  returning c.id),
missed as (
  select r.line from r where r.update_id is not null and r.update_id not in (select id from upd)),
done as (delete from crm_import_payloads where import_id = ? and part = ? returning part),
counts as (select (select count(*) from r)::int as records, (select count(*) from up where inserted)::int as created,
                  (select count(*) from missed)::int as missed where exists (select from done))
update crm_imports i set created = i.created + counts.created, updated = i.updated + counts.records - counts.created - counts.missed,
    failed = i.failed + counts.missed, updated_at = ?,
    errors = i.errors || coalesce((select jsonb_agg(jsonb_build_object('index', m.line, 'externalId', null, 'field', 'duplicate',
      'message', 'the customer this row updates was deleted or merged before the import reached it; not written')) from missed m), '[]'::jsonb)
  from counts where i.id = ? and i.tenant_id = ?`;
