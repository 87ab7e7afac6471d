import { PipelineStage } from '../../../entities/core/pipeline';
import { invalidField } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { transition, refuse } from './dealTransitions';

/** Moves an open deal to another stage of its pipeline (the same stage: nothing changes). */
export const moveDeal = (ctx: TenantContext, id: string, stageId: string) =>
  transition(ctx, id, async (deal, em, now) => {
    if (deal.status !== 'open') throw refuse(deal, 'moved');
    const stage = await em.findOne(PipelineStage, { id: stageId });
    if (!stage || stage.pipelineId !== deal.pipelineId)
      throw invalidField('stageId', "is not a stage of the deal's pipeline");
    if (stage.id === deal.stageId) return null;
    const from = deal.stageId;
    deal.stageId = stage.id;
    deal.stageChangedAt = now;
    return { type: 'moved', fromStageId: from, toStageId: stage.id, reason: null };
  });
