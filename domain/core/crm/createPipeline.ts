import { Pipeline, PipelineStage } from '../../../entities/core/pipeline';
import { badRequest } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import type { StageInput, PipelineWithStages } from './pipelineLookup';

export async function createPipeline(
  ctx: TenantContext,
  props: { name: string; stages: StageInput[] },
): Promise<PipelineWithStages> {
  if (props.stages.some((s) => s.id))
    throw badRequest('validation_failed', 'New stages have no id', [
      { field: 'stages', message: 'stages of a new pipeline have no id' },
    ]);
  return ctx.em.transactional(async (em) => {
    const pipeline = em.create(Pipeline, { tenantId: ctx.tenantId, name: props.name.trim() });
    const stages = props.stages.map((s, position) =>
      em.create(PipelineStage, {
        tenantId: ctx.tenantId,
        pipelineId: pipeline.id,
        name: s.name.trim(),
        probability: s.probability,
        position,
      }),
    );
    return { pipeline, stages };
  });
}
