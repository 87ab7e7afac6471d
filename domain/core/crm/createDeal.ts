import { Deal, DealEvent } from '../../../entities/core/deal';
import type { TenantContext } from '../../context';
import { notify } from '../../notifications/notify';
import { checkMember } from './members';
import { requestHealthRecompute } from './requestHealthRecompute';
import { checkCustomer, stageOf, externalTaken } from './dealLookup';

export interface DealInput {
  title: string;
  customerId: string;
  /** The stage the deal starts in; its pipeline becomes the deal's. */
  stageId: string;
  /** Integer cents. */
  amount: number;
  /** ISO 4217, upper case. */
  currency: string;
  ownerId?: string | null;
  /** YYYY-MM-DD. */
  expectedCloseDate?: string | null;
  externalId?: string | null;
}

/** Creates an open deal in a stage; its history starts with `created`. */
export async function createDeal(ctx: TenantContext, input: DealInput): Promise<Deal> {
  await checkCustomer(ctx.em, input.customerId);
  await checkMember(ctx.em, 'ownerId', input.ownerId);
  const stage = await stageOf(ctx.em, input.stageId);
  const now = new Date();
  const deal = await ctx.em
    .transactional(async (em) => {
      const made = em.create(Deal, {
        tenantId: ctx.tenantId,
        title: input.title.trim(),
        customerId: input.customerId,
        pipelineId: stage.pipelineId,
        stageId: stage.id,
        amount: input.amount,
        currency: input.currency,
        ownerId: input.ownerId === undefined ? ctx.userId : input.ownerId,
        status: 'open',
        lostReason: null,
        expectedCloseDate: input.expectedCloseDate ?? null,
        closedAt: null,
        stageChangedAt: now,
        externalId: input.externalId ?? null,
      });
      em.create(DealEvent, {
        tenantId: ctx.tenantId,
        dealId: made.id,
        type: 'created',
        fromStageId: null,
        toStageId: stage.id,
        actorId: ctx.userId,
        at: now,
        reason: null,
      });
      return made;
    })
    .catch((err: unknown) => {
      throw externalTaken(err, input.externalId);
    });
  await notify(ctx.services, 'core', [
    {
      event: 'deal.created',
      tenantId: ctx.tenantId,
      subject: { customerId: deal.customerId, dealId: deal.id },
      data: { title: deal.title, stageId: deal.stageId, amount: deal.amount, currency: deal.currency },
    },
  ]);
  await requestHealthRecompute(ctx.services, ctx.tenantId, [deal.customerId]);
  return deal;
}
