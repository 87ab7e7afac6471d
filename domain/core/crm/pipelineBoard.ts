import { Deal } from '../../../entities/core/deal';
import type { PipelineStage } from '../../../entities/core/pipeline';
import type { Pipeline } from '../../../entities/core/pipeline';
import type { Lean } from '../../../lib/lean';
import type { TenantContext } from '../../context';
import { getPipeline } from './pipelines';

/** Sums of one currency: amount of the open deals, and weighted = amount × probability (integer cents). */
export interface CurrencyTotal {
  currency: string;
  amount: number;
  weighted: number;
  count: number;
}

export interface BoardColumn {
  stage: Lean<PipelineStage>;
  /** The stage's open deals, most recently moved first (at most `perStage`). */
  deals: Deal[];
  count: number;
  totals: CurrencyTotal[];
}

export interface Board {
  pipeline: Lean<Pipeline>;
  columns: BoardColumn[];
  totals: CurrencyTotal[];
}

/**
 * The board of a pipeline: each stage with its open deals and its forecast per currency. A stage's weighted
 * amount is round(Σ amount × probability / 100) of its open deals; the pipeline's total weighted amount is the
 * sum of its stages' (won and lost deals are out of the forecast).
 */
export async function pipelineBoard(ctx: TenantContext, id: string, perStage: number): Promise<Board> {
  const { pipeline, stages } = await getPipeline(ctx, id);
  const sums = await ctx.em.execute<{ stage_id: string; currency: string; amount: string; count: number }[]>(
    `select stage_id, currency, sum(amount)::text as amount, count(*)::int as count from crm_deals where tenant_id = ? and pipeline_id = ? and status = 'open' group by stage_id, currency order by currency`,
    [ctx.tenantId, id],
  );
  const deals = stages.length
    ? await ctx.em.execute<Record<string, unknown>[]>(
        `select d.* from crm_pipeline_stages s cross join lateral (select * from crm_deals where tenant_id = ? and stage_id = s.id and status = 'open' order by stage_changed_at desc, id desc limit ?) d where s.pipeline_id = ?`,
        [ctx.tenantId, perStage, id],
      )
    : [];
  const mapped = deals.map((row) => ctx.em.map(Deal, row));
  const grand = new Map<string, CurrencyTotal>();
  const columns = stages.map((stage): BoardColumn => {
    const totals = sums
      .filter((s) => s.stage_id === stage.id)
      .map((s) => ({ currency: s.currency, amount: Number(s.amount), weighted: Math.round((Number(s.amount) * stage.probability) / 100), count: s.count }));
    for (const t of totals) {
      const g = grand.get(t.currency) ?? { currency: t.currency, amount: 0, weighted: 0, count: 0 };
      grand.set(t.currency, { currency: t.currency, amount: g.amount + t.amount, weighted: g.weighted + t.weighted, count: g.count + t.count });
    }
    return { stage, deals: mapped.filter((d) => d.stageId === stage.id), count: totals.reduce((n, t) => n + t.count, 0), totals };
  });
  return { pipeline, columns, totals: [...grand.values()].sort((a, b) => a.currency.localeCompare(b.currency)) };
}
