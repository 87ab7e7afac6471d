import { conflict } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { transition } from './dealTransitions';

/** Reopens a won or lost deal in the stage it was closed in. */
export const reopenDeal = (ctx: TenantContext, id: string) =>
  transition(ctx, id, async (deal) => {
    if (deal.status === 'open') throw conflict('invalid_transition', 'An open deal cannot be reopened');
    deal.status = 'open';
    deal.closedAt = null;
    deal.lostReason = null;
    return { type: 'reopened', fromStageId: deal.stageId, toStageId: deal.stageId, reason: null };
  });
