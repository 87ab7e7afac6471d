import { isUUID } from 'class-validator';
import { notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { pipelineById, stagesOfPipelines } from './store/pipelines';
import type { PipelineRows } from './pipelineLookup';

/** A pipeline with its stages (read together), or 404 (a malformed id included). */
export async function getPipeline(ctx: TenantContext, id: string): Promise<PipelineRows> {
  if (!isUUID(id)) throw notFound('Pipeline');
  const [pipeline, stages] = await Promise.all([pipelineById.one(ctx, id), stagesOfPipelines.all(ctx, [id])]);
  if (!pipeline) throw notFound('Pipeline');
  return { pipeline, stages };
}
