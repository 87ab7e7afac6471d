import type { TenantContext } from '../../../context';
import { checkCustomers } from './checkCustomers';
import { storePayload } from './payloads';
import { bound } from '../sql';

/**
 * Upserts the stored rows of a customer import by (tenant, externalId), one part per statement: a new
 * externalId creates a customer, a known one has its imported fields replaced (kind, name, roles, tags,
 * emails, phones, addresses) and its custom values merged; owner, activities, relations and deals stay. A
 * record that changes nothing writes nothing (a replay costs reads, not index entries). Each part is deleted
 * and counted in crm_imports by the statement that upserts it, so a retried job resumes at the first part left.
 */
export async function importCustomers(ctx: TenantContext, importId: string): Promise<void> {
  await checkLegacyPayload(ctx, importId);
  const parts = await bound<{ part: number }>(ctx.em, 'select part from crm_import_payloads where import_id = ? order by part', [importId]);
  for (const { part } of parts) {
    const now = new Date();
    // synchronous_commit off for the part only: its commit may be lost if PostgreSQL crashes in the next few
    // milliseconds, but then so is the deletion of its stored rows (same transaction), and the job, not yet
    // completed, is retried and upserts them again (idempotent by externalId). The import is marked completed by
    // a synchronous commit afterwards, which makes every earlier commit durable (the WAL is flushed in order).
    await ctx.em.getKnex().transaction(async (trx) => {
      await trx.raw('set local synchronous_commit = off');
      await trx.raw(UPSERT_PART, [importId, part, ctx.tenantId, now, now, importId, part, now, importId, ctx.tenantId]);
    });
  }
  // GIN indexes take new entries into a pending list that every read of the index scans linearly until it is
  // merged: after thousands of rows a custom-value or tag filter got ten times slower. The import merges it now,
  // so the lists read after it do not pay for it (as the indexes' owner: Migration20261210000100_crm_gin_clean_definer).
  if (parts.length) await bound(ctx.em, 'select crm_customers_clean_gin_pending()', []);
}

/**
 * Records accepted before they were checked at the call (stored unchecked by an earlier version) are checked
 * now and stored as rows, in the transaction that removes them, with their errors in the status.
 */
async function checkLegacyPayload(ctx: TenantContext, importId: string): Promise<void> {
  const [legacy] = await bound<{ records: Buffer }>(ctx.em, 'select records from crm_import_payloads where import_id = ? and not checked', [importId]);
  if (!legacy) return;
  const { rows, errors } = await checkCustomers(ctx, JSON.parse(legacy.records.toString()) as unknown[]);
  await ctx.em.transactional(async (em) => {
    await bound(em, 'delete from crm_import_payloads where import_id = ?', [importId]);
    await bound(em, 'update crm_imports set failed = ?, errors = ?::jsonb where id = ? and tenant_id = ?', [errors.length, JSON.stringify(errors), importId, ctx.tenantId]);
    await storePayload(em, importId, rows, true);
  });
}

/**
 * One part, in one statement: PostgreSQL reads the stored JSON rows itself (JSON arrays become the text[]
 * columns directly), upserts them, deletes the part and adds its counts to the import (only if this statement
 * deleted it: a job run twice at once counts each part once). `xmax = 0` tells an inserted row from an updated
 * one; a known externalId counts as updated even when nothing changed.
 */
const UPSERT_PART = `
with r as materialized (
  select r.* from crm_import_payloads p,
    jsonb_to_recordset(convert_from(p.records, 'UTF8')::jsonb)
    as r(id uuid, external_id text, kind text, name text, roles text[], tags text[], emails jsonb, phones jsonb, addresses jsonb, primary_email text, custom jsonb, search_text text)
  where p.import_id = ? and p.part = ?),
up as (
  insert into crm_customers as c (tenant_id, created_at, updated_at, id, external_id, kind, name, roles, tags, emails, phones, addresses, primary_email, custom, search_text)
  select ?::uuid, ?::timestamptz, ?::timestamptz, r.id, r.external_id, r.kind, r.name, r.roles, r.tags,
         r.emails, r.phones, r.addresses, r.primary_email, r.custom, r.search_text
    from r
  on conflict (tenant_id, external_id) do update set
    updated_at = excluded.updated_at, kind = excluded.kind, name = excluded.name, roles = excluded.roles, tags = excluded.tags,
    emails = excluded.emails, phones = excluded.phones, addresses = excluded.addresses, primary_email = excluded.primary_email,
    custom = c.custom || excluded.custom, search_text = excluded.search_text
  where (c.kind, c.name, c.roles, c.tags, c.emails, c.phones, c.addresses) is distinct from (excluded.kind, excluded.name, excluded.roles, excluded.tags, excluded.emails, excluded.phones, excluded.addresses)
     or not c.custom @> excluded.custom
  returning (xmax = 0) as inserted),
done as (delete from crm_import_payloads where import_id = ? and part = ? returning part),
counts as (select (select count(*) from r)::int as records, (select count(*) from up where inserted)::int as created where exists (select from done))
update crm_imports i set created = i.created + counts.created, updated = i.updated + counts.records - counts.created, updated_at = ?
  from counts where i.id = ? and i.tenant_id = ?`;
