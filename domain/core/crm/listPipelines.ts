import type { TenantContext } from '../../context';
import { pipelinesOldestFirst, stagesOfPipelines } from './store/pipelines';
import type { PipelineRows } from './pipelineLookup';

/** The organisation's pipelines with their stages, oldest first (few per organisation: no paging). */
export async function listPipelines(ctx: TenantContext): Promise<PipelineRows[]> {
  const pipelines = await pipelinesOldestFirst.all(ctx);
  const stages = pipelines.length
    ? await stagesOfPipelines.all(
        ctx,
        pipelines.map((p) => p.id),
      )
    : [];
  return pipelines.map((pipeline) => ({ pipeline, stages: stages.filter((s) => s.pipelineId === pipeline.id) }));
}
