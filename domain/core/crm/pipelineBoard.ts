import type { Deal } from '../../../entities/core/deal';
import type { PipelineStage } from '../../../entities/core/pipeline';
import type { Pipeline } from '../../../entities/core/pipeline';
import type { Lean } from '../../../lib/lean';
import type { TenantContext } from '../../context';
import { getPipeline } from './pipelines';
import { boardDeals, stageSums } from './store/pipelines';

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
  deals: Lean<Deal>[];
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
  const [sums, deals] = await Promise.all([stageSums(ctx.services.orm, [ctx.tenantId, id]), stages.length ? boardDeals.all(ctx, id, perStage, ctx.tenantId) : []]);
  const grand = new Map<string, CurrencyTotal>();
  const columns = stages.map((stage): BoardColumn => {
    const totals = sums
      .filter((s) => s.stage_id === stage.id)
      .map((s) => ({ currency: s.currency, amount: Number(s.amount), weighted: Math.round((Number(s.amount) * stage.probability) / 100), count: s.count }));
    for (const t of totals) {
      const g = grand.get(t.currency) ?? { currency: t.currency, amount: 0, weighted: 0, count: 0 };
      grand.set(t.currency, { currency: t.currency, amount: g.amount + t.amount, weighted: g.weighted + t.weighted, count: g.count + t.count });
    }
    return { stage, deals: deals.filter((d) => d.stageId === stage.id), count: totals.reduce((n, t) => n + t.count, 0), totals };
  });
  return { pipeline, columns, totals: [...grand.values()].sort((a, b) => a.currency.localeCompare(b.currency)) };
}
