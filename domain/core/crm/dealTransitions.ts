import { Deal, DealEvent, type DealEventType } from '../../../entities/core/deal';
import { PipelineStage } from '../../../entities/core/pipeline';
import { conflict, invalidField, notFound } from '../../../lib/errors';
import { isUUID } from 'class-validator';
import type { Em } from '../../../lib/db';
import type { TenantContext } from '../../context';
import { notify } from '../../notifications/notify';
import { requestHealthRecompute } from './requestHealthRecompute';
import { lockDeal } from './store/deals';

/**
 * Deal states and their rules:
 *
 *   open  --move(stageId)-->  open   to another stage of the same pipeline (the same stage: nothing changes)
 *   open  --win-->            won    closedAt = now
 *   open  --lose(reason)-->   lost   closedAt = now, lostReason kept
 *   won | lost --reopen-->    open   in the stage it was closed in; closedAt and lostReason cleared
 *
 * Anything else (moving or winning a closed deal, losing a won one, reopening an open one) is refused with 409
 * `invalid_transition`. Every change is recorded in the deal's history with its time and actor.
 */
async function transition(ctx: TenantContext, id: string, apply: (deal: Deal, em: Em, now: Date) => Promise<Omit<DealEvent, 'id' | 'tenantId' | 'createdAt' | 'dealId' | 'at' | 'actorId'> | null>): Promise<Deal> {
  if (!isUUID(id)) throw notFound('Deal');
  let event: DealEventType | null = null;
  const deal = await ctx.em.transactional(async (em) => {
    const found = await lockDeal(em, id);
    if (!found) throw notFound('Deal');
    const now = new Date();
    const change = await apply(found, em, now);
    if (change) {
      event = change.type;
      found.updatedAt = now;
      em.create(DealEvent, { tenantId: ctx.tenantId, dealId: found.id, at: now, actorId: ctx.userId, ...change });
    }
    return found;
  });
  if (event) {
    const name = `deal.${event}` as 'deal.moved' | 'deal.won' | 'deal.lost' | 'deal.reopened';
    await notify(ctx.services, 'core', [{ event: name, tenantId: ctx.tenantId, subject: { customerId: deal.customerId, dealId: deal.id }, data: { stageId: deal.stageId, amount: deal.amount, currency: deal.currency, status: deal.status, reason: deal.lostReason } }]);
    await requestHealthRecompute(ctx.services, ctx.tenantId, [deal.customerId]);
  }
  return deal;
}

const refuse = (deal: Deal, action: string) => conflict('invalid_transition', `A ${deal.status} deal cannot be ${action}${deal.status === 'open' ? '' : '; reopen it first'}`);

export const moveDeal = (ctx: TenantContext, id: string, stageId: string) =>
  transition(ctx, id, async (deal, em, now) => {
    if (deal.status !== 'open') throw refuse(deal, 'moved');
    const stage = await em.findOne(PipelineStage, { id: stageId });
    if (!stage || stage.pipelineId !== deal.pipelineId) throw invalidField('stageId', "is not a stage of the deal's pipeline");
    if (stage.id === deal.stageId) return null;
    const from = deal.stageId;
    deal.stageId = stage.id;
    deal.stageChangedAt = now;
    return { type: 'moved', fromStageId: from, toStageId: stage.id, reason: null };
  });

export const winDeal = (ctx: TenantContext, id: string) =>
  transition(ctx, id, async (deal, _em, now) => {
    if (deal.status !== 'open') throw refuse(deal, 'won');
    deal.status = 'won';
    deal.closedAt = now;
    return { type: 'won', fromStageId: deal.stageId, toStageId: deal.stageId, reason: null };
  });

export const loseDeal = (ctx: TenantContext, id: string, reason: string) =>
  transition(ctx, id, async (deal, _em, now) => {
    if (deal.status !== 'open') throw refuse(deal, 'lost');
    deal.status = 'lost';
    deal.closedAt = now;
    deal.lostReason = reason.trim();
    return { type: 'lost', fromStageId: deal.stageId, toStageId: deal.stageId, reason: deal.lostReason };
  });

export const reopenDeal = (ctx: TenantContext, id: string) =>
  transition(ctx, id, async (deal) => {
    if (deal.status === 'open') throw conflict('invalid_transition', 'An open deal cannot be reopened');
    deal.status = 'open';
    deal.closedAt = null;
    deal.lostReason = null;
    return { type: 'reopened', fromStageId: deal.stageId, toStageId: deal.stageId, reason: null };
  });
