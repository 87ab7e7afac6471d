import type { TenantContext } from '../../context';
import { transition, refuse } from './dealTransitions';

/** Marks an open deal lost, with its reason (closedAt now). */
export const loseDeal = (ctx: TenantContext, id: string, reason: string) =>
  transition(ctx, id, async (deal, _em, now) => {
    if (deal.status !== 'open') throw refuse(deal, 'lost');
    deal.status = 'lost';
    deal.closedAt = now;
    deal.lostReason = reason.trim();
    return { type: 'lost', fromStageId: deal.stageId, toStageId: deal.stageId, reason: deal.lostReason };
  });
