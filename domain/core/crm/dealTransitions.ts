import { Deal, DealEvent, type DealEventType } from '../../../entities/core/deal';
import { conflict, notFound } from '../../../lib/errors';
import { isUUID } from 'class-validator';
import type { Em } from '../../../lib/db';
import type { TenantContext } from '../../context';
import { notify } from '../../notifications/notify';
import { requestHealthRecompute } from './requestHealthRecompute';
import { lockDeal } from './store/deals';
import { emitEvent } from '../../webhooks/emitEvent';
import { dealData } from '../../webhooks/payloads';

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
export async function transition(
  ctx: TenantContext,
  id: string,
  apply: (
    deal: Deal,
    em: Em,
    now: Date,
  ) => Promise<Omit<DealEvent, 'id' | 'tenantId' | 'createdAt' | 'dealId' | 'at' | 'actorId'> | null>,
): Promise<Deal> {
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
      if (change.type === 'won' || change.type === 'lost')
        emitEvent(em, ctx.tenantId, `deal.${change.type}`, dealData(found));
    }
    return found;
  });
  if (event) {
    const name = `deal.${event}` as 'deal.moved' | 'deal.won' | 'deal.lost' | 'deal.reopened';
    await notify(ctx.services, 'core', [
      {
        event: name,
        tenantId: ctx.tenantId,
        subject: { customerId: deal.customerId, dealId: deal.id },
        data: {
          stageId: deal.stageId,
          amount: deal.amount,
          currency: deal.currency,
          status: deal.status,
          reason: deal.lostReason,
        },
      },
    ]);
    await requestHealthRecompute(ctx.services, ctx.tenantId, [deal.customerId]);
  }
  return deal;
}

/** 409 `invalid_transition` for an action the deal's status does not allow. */
export const refuse = (deal: Deal, action: string) =>
  conflict(
    'invalid_transition',
    `A ${deal.status} deal cannot be ${action}${deal.status === 'open' ? '' : '; reopen it first'}`,
  );
