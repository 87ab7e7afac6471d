import { ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import { isUUID } from 'class-validator';
import { Pipeline, PipelineStage } from '../../../entities/core/pipeline';
import { badRequest, conflict, notFound } from '../../../lib/errors';
import type { Em } from '../../../lib/db';
import type { Lean } from '../../../lib/lean';
import type { TenantContext } from '../../context';
import { pipelineById, pipelinesOldestFirst, stagesOf, stagesOfPipelines } from './store/pipelines';

export interface StageInput {
  /** An existing stage of the pipeline (kept, with its deals); absent for a new stage. */
  id?: string;
  name: string;
  /** 0-100 %: the share of an open deal's amount the forecast counts in this stage. */
  probability: number;
}

export interface PipelineWithStages {
  pipeline: Pipeline;
  stages: PipelineStage[];
}

export async function findPipeline(em: Em, id: string): Promise<Pipeline> {
  const pipeline = isUUID(id) ? await em.findOne(Pipeline, { id }) : null;
  if (!pipeline) throw notFound('Pipeline');
  return pipeline;
}

/** A pipeline and its stages as the GET routes present them (lean rows; the writes answer entities). */
export interface PipelineRows {
  pipeline: Lean<Pipeline>;
  stages: Lean<PipelineStage>[];
}

/** A pipeline with its stages (read together), or 404 (a malformed id included). */
export async function getPipeline(ctx: TenantContext, id: string): Promise<PipelineRows> {
  if (!isUUID(id)) throw notFound('Pipeline');
  const [pipeline, stages] = await Promise.all([pipelineById.one(ctx, id), stagesOfPipelines.all(ctx, [id])]);
  if (!pipeline) throw notFound('Pipeline');
  return { pipeline, stages };
}

/** The organisation's pipelines with their stages, oldest first (few per organisation: no paging). */
export async function listPipelines(ctx: TenantContext): Promise<PipelineRows[]> {
  const pipelines = await pipelinesOldestFirst.all(ctx);
  const stages = pipelines.length ? await stagesOfPipelines.all(ctx, pipelines.map((p) => p.id)) : [];
  return pipelines.map((pipeline) => ({ pipeline, stages: stages.filter((s) => s.pipelineId === pipeline.id) }));
}

export async function createPipeline(ctx: TenantContext, props: { name: string; stages: StageInput[] }): Promise<PipelineWithStages> {
  if (props.stages.some((s) => s.id)) throw badRequest('validation_failed', 'New stages have no id', [{ field: 'stages', message: 'stages of a new pipeline have no id' }]);
  return ctx.em.transactional(async (em) => {
    const pipeline = em.create(Pipeline, { tenantId: ctx.tenantId, name: props.name.trim() });
    const stages = props.stages.map((s, position) => em.create(PipelineStage, { tenantId: ctx.tenantId, pipelineId: pipeline.id, name: s.name.trim(), probability: s.probability, position }));
    return { pipeline, stages };
  });
}

/**
 * Renames a pipeline and/or replaces its stages: the list gives the new order; listed ids are kept (with their
 * deals), stages without id are added, and stages left out are removed, which is refused while deals are in them
 * (409 `stage_has_deals`).
 */
export async function updatePipeline(ctx: TenantContext, id: string, props: { name?: string; stages?: StageInput[] }): Promise<PipelineWithStages> {
  return ctx.em.transactional(async (em) => {
    const pipeline = await findPipeline(em, id);
    if (props.name !== undefined) pipeline.name = props.name.trim();
    pipeline.updatedAt = new Date();
    let stages = await stagesOf(em, [id]);
    if (props.stages) {
      const current = new Map(stages.map((s) => [s.id, s]));
      const errors = props.stages.flatMap((s, i) => (s.id && !current.has(s.id) ? [{ field: `stages[${i}].id`, message: 'is not a stage of this pipeline' }] : []));
      const ids = props.stages.filter((s) => s.id).map((s) => s.id);
      if (new Set(ids).size !== ids.length) errors.push({ field: 'stages', message: 'lists a stage twice' });
      if (errors.length) throw badRequest('validation_failed', 'Invalid stages', errors);
      const kept = new Set(ids);
      for (const stage of stages) if (!kept.has(stage.id)) em.remove(stage);
      stages = props.stages.map((s, position) => {
        if (!s.id) return em.create(PipelineStage, { tenantId: ctx.tenantId, pipelineId: id, name: s.name.trim(), probability: s.probability, position });
        const stage = current.get(s.id)!;
        Object.assign(stage, { name: s.name.trim(), probability: s.probability, position });
        return stage;
      });
    }
    try {
      await em.flush();
    } catch (err) {
      if (err instanceof ForeignKeyConstraintViolationException) throw conflict('stage_has_deals', 'A stage left out still holds deals; move them to another stage first');
      throw err;
    }
    return { pipeline, stages };
  });
}

/** Deletes a pipeline and its stages; refused while it holds deals (409 `pipeline_has_deals`). */
export async function deletePipeline(ctx: TenantContext, id: string): Promise<void> {
  const pipeline = await findPipeline(ctx.em, id);
  try {
    await ctx.em.remove(pipeline).flush();
  } catch (err) {
    if (err instanceof ForeignKeyConstraintViolationException) throw conflict('pipeline_has_deals', 'This pipeline holds deals; delete or move them first');
    throw err;
  }
}
