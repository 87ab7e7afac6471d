import { ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import { PipelineStage } from '../../../entities/core/pipeline';
import { badRequest, conflict } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { stagesOf } from './store/pipelines';
import { findPipeline, type PipelineWithStages, type StageInput } from './pipelineLookup';

/**
 * Renames a pipeline and/or replaces its stages: the list gives the new order; listed ids are kept (with their
 * deals), stages without id are added, and stages left out are removed, which is refused while deals are in them
 * (409 `stage_has_deals`).
 */
export async function updatePipeline(
  ctx: TenantContext,
  id: string,
  props: { name?: string; stages?: StageInput[] },
): Promise<PipelineWithStages> {
  return ctx.em.transactional(async (em) => {
    const pipeline = await findPipeline(em, id);
    if (props.name !== undefined) pipeline.name = props.name.trim();
    pipeline.updatedAt = new Date();
    let stages = await stagesOf(em, [id]);
    if (props.stages) {
      const current = new Map(stages.map((s) => [s.id, s]));
      const errors = props.stages.flatMap((s, i) =>
        s.id && !current.has(s.id) ? [{ field: `stages[${i}].id`, message: 'is not a stage of this pipeline' }] : [],
      );
      const ids = props.stages.filter((s) => s.id).map((s) => s.id);
      if (new Set(ids).size !== ids.length) errors.push({ field: 'stages', message: 'lists a stage twice' });
      if (errors.length) throw badRequest('validation_failed', 'Invalid stages', errors);
      const kept = new Set(ids);
      for (const stage of stages) if (!kept.has(stage.id)) em.remove(stage);
      stages = props.stages.map((s, position) => {
        if (!s.id)
          return em.create(PipelineStage, {
            tenantId: ctx.tenantId,
            pipelineId: id,
            name: s.name.trim(),
            probability: s.probability,
            position,
          });
        const stage = current.get(s.id)!;
        Object.assign(stage, { name: s.name.trim(), probability: s.probability, position });
        return stage;
      });
    }
    try {
      await em.flush();
    } catch (err) {
      if (err instanceof ForeignKeyConstraintViolationException)
        throw conflict('stage_has_deals', 'A stage left out still holds deals; move them to another stage first');
      throw err;
    }
    return { pipeline, stages };
  });
}
