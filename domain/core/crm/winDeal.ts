import type { TenantContext } from '../../context';
import { transition, refuse } from './dealTransitions';

/** Marks an open deal won (closedAt now). */
export const winDeal = (ctx: TenantContext, id: string) =>
  transition(ctx, id, async (deal, _em, now) => {
    if (deal.status !== 'open') throw refuse(deal, 'won');
    deal.status = 'won';
    deal.closedAt = now;
    return { type: 'won', fromStageId: deal.stageId, toStageId: deal.stageId, reason: null };
  });
