import { LockMode } from '@mikro-orm/core';
import { Deal, DealEvent } from '../../../../entities/core/deal';
import type { Em } from '../../../../lib/db';
import { lean } from '../../../../lib/lean';
import { bound } from './sql';

/** The deal with this id, its row locked until the transaction ends (a move, win, lose or reopen). */
export const lockDeal = (em: Em, id: string): Promise<Deal | null> =>
  em.findOne(Deal, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });

// A lean statement (docs/database-path.md): every combination of filters is one prepared statement.
// $1 customer, $2 pipeline, $3 stage, $4 owner, $5 status (each null when absent), $6 the cursor id, $7 the page size.
export const dealsPage = lean(Deal, {
  where: `($1::uuid is null or customer_id = $1) and ($2::uuid is null or pipeline_id = $2) and ($3::uuid is null or stage_id = $3)
    and ($4::uuid is null or owner_id = $4) and ($5::text is null or status = $5) and ($6::uuid is null or id > $6)`,
  orderBy: 'id asc',
  limitParam: '$7',
});

// Lean statements (docs/database-path.md): a deal and its history, read in parallel.
export const dealById = lean(Deal, { where: 'id = $1' });
export const dealHistory = lean(DealEvent, { where: 'deal_id = $1', orderBy: 'at asc, id asc' });

/** The pipeline of each stage of the organisation, by stage id. */
export async function stagePipelines(em: Em, tenantId: string): Promise<Map<string, string>> {
  const rows = await em.execute<{ id: string; pipeline_id: string }[]>(
    'select id, pipeline_id from crm_pipeline_stages where tenant_id = ?',
    [tenantId],
  );
  return new Map(rows.map((s) => [s.id, s.pipeline_id]));
}

/** The first stage of the organisation's oldest pipeline (none without pipelines). */
export async function firstStage(em: Em, tenantId: string): Promise<{ id: string; pipeline_id: string } | undefined> {
  const [first] = await em.execute<{ id: string; pipeline_id: string }[]>(
    'select s.id, s.pipeline_id from crm_pipelines p join crm_pipeline_stages s on s.pipeline_id = p.id where p.tenant_id = ? order by p.id, s.position, s.id limit 1',
    [tenantId],
  );
  return first;
}

/** A deal row of an import, as the upsert reads it. */
export interface ImportedDealRow {
  id: string;
  external_id: string;
  title: string;
  customer_id: string;
  pipeline_id: string;
  stage_id: string;
  amount: number;
  currency: string;
  expected_close_date: string | null;
}

/**
 * Upserts imported deals by (tenant, externalId) in one statement: a new one starts open at `now`; a known one
 * has title, customer, amount, currency and expected close date replaced. `inserted` tells which were new.
 */
export function upsertImportedDeals(
  em: Em,
  tenantId: string,
  now: Date,
  rows: ImportedDealRow[],
): Promise<{ id: string; stage_id: string; inserted: boolean }[]> {
  return bound<{ id: string; stage_id: string; inserted: boolean }>(em, UPSERT_DEALS, [
    tenantId,
    now,
    JSON.stringify(rows),
  ]);
}

/** The `created` events of new deals (each with its own id), at `now`, without actor. */
export async function addCreatedEvents(
  em: Em,
  tenantId: string,
  now: Date,
  events: { id: string; deal_id: string; stage_id: string }[],
): Promise<void> {
  await bound(
    em,
    `insert into crm_deal_events (id, tenant_id, created_at, deal_id, type, from_stage_id, to_stage_id, actor_id, at, reason)
     select e.id, ?::uuid, ?::timestamptz, e.deal_id, 'created', null, e.stage_id, null, ?::timestamptz, null from jsonb_to_recordset(?::jsonb) as e(id uuid, deal_id uuid, stage_id uuid)`,
    [tenantId, now, now, JSON.stringify(events)],
  );
}

const UPSERT_DEALS = `
insert into crm_deals (tenant_id, created_at, updated_at, stage_changed_at, status, id, external_id, title, customer_id, pipeline_id, stage_id, amount, currency, expected_close_date)
select ?::uuid, t.at, t.at, t.at, 'open', r.id, r.external_id, r.title, r.customer_id, r.pipeline_id, r.stage_id, r.amount, r.currency, r.expected_close_date
  from (select ?::timestamptz as at) t,
       jsonb_to_recordset(?::jsonb) as r(id uuid, external_id text, title text, customer_id uuid, pipeline_id uuid, stage_id uuid, amount bigint, currency text, expected_close_date date)
on conflict (tenant_id, external_id) do update set
  updated_at = excluded.updated_at, title = excluded.title, customer_id = excluded.customer_id, amount = excluded.amount,
  currency = excluded.currency, expected_close_date = excluded.expected_close_date
returning id, stage_id, (xmax = 0) as inserted`;
