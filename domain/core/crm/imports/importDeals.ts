import { newId } from '../../../../entities/base';
import type { ImportRecordError } from '../../../../entities/core/crmImport';
import type { TenantContext } from '../../../context';
import type { ImportOutcome } from './runImport';
import { parseDealRecord, type ImportedDeal } from './records';
import { bound } from '../sql';

/** Rows per statement: one multi-row statement per chunk keeps each statement well under a second. */
const IMPORT_CHUNK = 500;

/**
 * Upserts deal records by (tenant, externalId). The customer is named by customerId or customerExternalId (a
 * customer imported earlier); the stage by stageId, by default the first stage of the organisation's oldest
 * pipeline. A new deal starts open, with `created` in its history; a known one has its title, amount, currency,
 * customer and expected close date replaced, while its stage and status move only through the deal routes.
 */
export async function importDeals(ctx: TenantContext, raw: unknown[]): Promise<ImportOutcome & { customerIds: string[] }> {
  const errors: ImportRecordError[] = [];
  const parsed: { index: number; record: ImportedDeal }[] = [];
  const seen = new Map<string, number>();
  raw.forEach((item, index) => {
    const result = parseDealRecord(item);
    if ('errors' in result) return void errors.push(...result.errors.map((e) => ({ index, externalId: result.externalId, ...e })));
    const first = seen.get(result.record.externalId);
    if (first !== undefined) return void errors.push({ index, externalId: result.record.externalId, field: 'externalId', message: `repeats record ${first} of this call` });
    seen.set(result.record.externalId, index);
    parsed.push({ index, record: result.record });
  });

  // What the records name, resolved in a few set queries.
  const byExternal = new Map<string, string>();
  const externalIds = [...new Set(parsed.flatMap(({ record }) => (record.customerExternalId ? [record.customerExternalId] : [])))];
  for (let at = 0; at < externalIds.length; at += IMPORT_CHUNK) {
    const rows = await ctx.em.execute<{ id: string; external_id: string }[]>('select id, external_id from crm_customers where tenant_id = ? and external_id in (?)', [ctx.tenantId, externalIds.slice(at, at + IMPORT_CHUNK)]);
    for (const r of rows) byExternal.set(r.external_id, r.id);
  }
  const customerIds = [...new Set(parsed.flatMap(({ record }) => (record.customerId ? [record.customerId] : [])))];
  const knownCustomers = new Set<string>();
  for (let at = 0; at < customerIds.length; at += IMPORT_CHUNK) {
    const rows = await ctx.em.execute<{ id: string }[]>('select id from crm_customers where tenant_id = ? and id in (?)', [ctx.tenantId, customerIds.slice(at, at + IMPORT_CHUNK)]);
    for (const r of rows) knownCustomers.add(r.id);
  }
  const stages = new Map((await ctx.em.execute<{ id: string; pipeline_id: string }[]>('select id, pipeline_id from crm_pipeline_stages where tenant_id = ?', [ctx.tenantId])).map((s) => [s.id, s.pipeline_id]));
  const [first] = await ctx.em.execute<{ id: string; pipeline_id: string }[]>(
    'select s.id, s.pipeline_id from crm_pipelines p join crm_pipeline_stages s on s.pipeline_id = p.id where p.tenant_id = ? order by p.id, s.position, s.id limit 1',
    [ctx.tenantId],
  );

  const rows: { record: ImportedDeal; customerId: string; stageId: string; pipelineId: string }[] = [];
  for (const { index, record } of parsed) {
    const customerId = record.customerId ? (knownCustomers.has(record.customerId) ? record.customerId : undefined) : byExternal.get(record.customerExternalId!);
    if (!customerId) {
      errors.push({ index, externalId: record.externalId, field: record.customerId ? 'customerId' : 'customerExternalId', message: 'names no customer of this organisation' });
      continue;
    }
    const stageId = record.stageId ?? first?.id;
    const pipelineId = stageId ? stages.get(stageId) : undefined;
    if (!stageId || !pipelineId) {
      errors.push({ index, externalId: record.externalId, field: 'stageId', message: record.stageId ? 'is not a stage of this organisation' : 'no pipeline exists yet: create one or give stageId' });
      continue;
    }
    rows.push({ record, customerId, stageId, pipelineId });
  }

  let created = 0;
  const now = new Date();
  // Every chunk in one transaction (a savepoint in the caller's, which also records the outcome): an import that
  // fails has written nothing, so its `failed` count (every record, see failImport) is what was not written.
  await ctx.em.transactional(async (em) => {
    for (let at = 0; at < rows.length; at += IMPORT_CHUNK) {
      const chunk = rows.slice(at, at + IMPORT_CHUNK);
      const records = chunk.map((r) => ({
        id: newId(),
        external_id: r.record.externalId,
        title: r.record.title,
        customer_id: r.customerId,
        pipeline_id: r.pipelineId,
        stage_id: r.stageId,
        amount: r.record.amount,
        currency: r.record.currency,
        expected_close_date: r.record.expectedCloseDate,
      }));
      const upserted = await bound<{ id: string; stage_id: string; inserted: boolean }>(em, UPSERT, [ctx.tenantId, now, JSON.stringify(records)]);
      const inserted = upserted.filter((r) => r.inserted);
      created += inserted.length;
      if (inserted.length) {
        await bound(
          em,
          `insert into crm_deal_events (id, tenant_id, created_at, deal_id, type, from_stage_id, to_stage_id, actor_id, at, reason)
           select e.id, ?::uuid, ?::timestamptz, e.deal_id, 'created', null, e.stage_id, null, ?::timestamptz, null from jsonb_to_recordset(?::jsonb) as e(id uuid, deal_id uuid, stage_id uuid)`,
          [ctx.tenantId, now, now, JSON.stringify(inserted.map((r) => ({ id: newId(), deal_id: r.id, stage_id: r.stage_id })))],
        );
      }
    }
  });
  // Deal momentum changed for these customers: the caller requests their scores once its transaction committed.
  return { created, updated: rows.length - created, errors: errors.sort((a, b) => a.index - b.index), customerIds: [...new Set(rows.map((r) => r.customerId))] };
}

const UPSERT = `
insert into crm_deals (tenant_id, created_at, updated_at, stage_changed_at, status, id, external_id, title, customer_id, pipeline_id, stage_id, amount, currency, expected_close_date)
select ?::uuid, t.at, t.at, t.at, 'open', r.id, r.external_id, r.title, r.customer_id, r.pipeline_id, r.stage_id, r.amount, r.currency, r.expected_close_date
  from (select ?::timestamptz as at) t,
       jsonb_to_recordset(?::jsonb) as r(id uuid, external_id text, title text, customer_id uuid, pipeline_id uuid, stage_id uuid, amount bigint, currency text, expected_close_date date)
on conflict (tenant_id, external_id) do update set
  updated_at = excluded.updated_at, title = excluded.title, customer_id = excluded.customer_id, amount = excluded.amount,
  currency = excluded.currency, expected_close_date = excluded.expected_close_date
returning id, stage_id, (xmax = 0) as inserted`;
