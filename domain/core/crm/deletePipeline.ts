import { ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import { conflict } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { findPipeline } from './pipelineLookup';

/** Deletes a pipeline and its stages; refused while it holds deals (409 `pipeline_has_deals`). */
export async function deletePipeline(ctx: TenantContext, id: string): Promise<void> {
  const pipeline = await findPipeline(ctx.em, id);
  try {
    await ctx.em.remove(pipeline).flush();
  } catch (err) {
    if (err instanceof ForeignKeyConstraintViolationException)
      throw conflict('pipeline_has_deals', 'This pipeline holds deals; delete or move them first');
    throw err;
  }
}
