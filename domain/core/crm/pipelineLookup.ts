import { isUUID } from 'class-validator';
import { Pipeline, PipelineStage } from '../../../entities/core/pipeline';
import { notFound } from '../../../lib/errors';
import type { Em } from '../../../lib/db';
import type { Lean } from '../../../lib/lean';

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

/** The pipeline with this id, or 404 (a malformed id included). */
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
