import { Pipeline, PipelineStage } from '../../../../entities/core/pipeline';
import { Deal } from '../../../../entities/core/deal';
import type { Em } from '../../../../lib/db';
import { lean, preparedRead } from '../../../../lib/lean';

/** The stages of these pipelines, in their order (entities: for the writes). */
export const stagesOf = (em: Em, pipelineIds: string[]): Promise<PipelineStage[]> =>
  em.find(PipelineStage, { pipelineId: { $in: pipelineIds } }, { orderBy: { position: 'asc', id: 'asc' } });

// Lean statements (docs/database-path.md) of the GET routes; updatePipeline reads with its transaction's em (stagesOf).
export const pipelineById = lean(Pipeline, { where: 'id = $1' });
export const pipelinesOldestFirst = lean(Pipeline, { orderBy: 'id asc', limit: 200 });
export const stagesOfPipelines = lean(PipelineStage, {
  where: 'pipeline_id = any($1::uuid[])',
  orderBy: 'position asc, id asc',
});

// Lean reads (docs/database-path.md) of a board. The sums per stage and currency (an aggregate: preparedRead, the
// tenant bound as $1 in the text). The open deals of each stage of the pipeline, most recently moved first, at most
// $2 per stage ($3: the tenant again, for the lateral subquery; the statement's own table is bound to the tenant).
export const stageSums = preparedRead<{ stage_id: string; currency: string; amount: string; count: number }>(
  `select stage_id, currency, sum(amount)::text as amount, count(*)::int as count from crm_deals where tenant_id = $1 and pipeline_id = $2 and status = 'open' group by stage_id, currency order by currency`,
);
export const boardDeals = lean(Deal, {
  where: `id in (select d.id from crm_pipeline_stages s cross join lateral (select id from crm_deals where tenant_id = $3 and stage_id = s.id and status = 'open' order by stage_changed_at desc, id desc limit $2) d where s.pipeline_id = $1)`,
  orderBy: 'stage_changed_at desc, id desc',
});
