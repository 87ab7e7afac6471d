import type { TenantContext } from '../../context';
import { boardOf, type Board } from './boardForecast';
import { getPipeline } from './getPipeline';
import { boardDeals, stageSums } from './store/pipelines';

/**
 * The board of a pipeline: each stage with its open deals and its forecast per currency. A stage's weighted
 * amount is round(Σ amount × probability / 100) of its open deals; the pipeline's total weighted amount is the
 * sum of its stages' (won and lost deals are out of the forecast).
 */
export async function pipelineBoard(ctx: TenantContext, id: string, perStage: number): Promise<Board> {
  const { pipeline, stages } = await getPipeline(ctx, id);
  const [sums, deals] = await Promise.all([
    stageSums(ctx.services.orm, [ctx.tenantId, id]),
    stages.length ? boardDeals.all(ctx, id, perStage, ctx.tenantId) : [],
  ]);
  return boardOf(pipeline, stages, sums, deals);
}
