import { isUUID } from 'class-validator';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { Deal, DealEvent, type DealStatus } from '../../../entities/core/deal';
import { PipelineStage } from '../../../entities/core/pipeline';
import type { Em } from '../../../lib/db';
import { conflict, invalidField, notFound } from '../../../lib/errors';
import type { Lean } from '../../../lib/lean';
import { toPage, type Page } from '../../../lib/pagination';
import type { TenantContext } from '../../context';
import { notify } from '../../notifications/notify';
import { checkMember } from './members';
import { requestHealthRecompute } from './requestHealthRecompute';
import { hasCustomer } from './store/customers';
import { dealById, dealHistory, dealsPage } from './store/deals';

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

export async function findDeal(em: Em, id: string): Promise<Deal> {
  const deal = isUUID(id) ? await em.findOne(Deal, { id }) : null;
  if (!deal) throw notFound('Deal');
  return deal;
}

async function checkCustomer(em: Em, customerId: string) {
  if (!(await hasCustomer(em, customerId))) throw invalidField('customerId', 'is not a customer of this organisation');
}

async function stageOf(em: Em, stageId: string): Promise<PipelineStage> {
  const stage = await em.findOne(PipelineStage, { id: stageId });
  if (!stage) throw invalidField('stageId', 'is not a stage of a pipeline of this organisation');
  return stage;
}

const externalTaken = (err: unknown, externalId: string | null | undefined) => {
  if (err instanceof UniqueConstraintViolationException) return conflict('external_id_taken', `Another deal has the externalId ${externalId}`);
  return err;
};

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
      em.create(DealEvent, { tenantId: ctx.tenantId, dealId: made.id, type: 'created', fromStageId: null, toStageId: stage.id, actorId: ctx.userId, at: now, reason: null });
      return made;
    })
    .catch((err: unknown) => {
      throw externalTaken(err, input.externalId);
    });
  await notify(ctx.services, 'core', [{ event: 'deal.created', tenantId: ctx.tenantId, subject: { customerId: deal.customerId, dealId: deal.id }, data: { title: deal.title, stageId: deal.stageId, amount: deal.amount, currency: deal.currency } }]);
  await requestHealthRecompute(ctx.services, ctx.tenantId, [deal.customerId]);
  return deal;
}

/** Edits a deal's details (any status); its stage and status change only through move, win, lose and reopen. */
export async function updateDeal(ctx: TenantContext, id: string, changes: Partial<Omit<DealInput, 'stageId'>>): Promise<Deal> {
  const deal = await findDeal(ctx.em, id);
  const before = deal.customerId;
  if (changes.customerId) await checkCustomer(ctx.em, changes.customerId);
  if (changes.ownerId !== undefined) await checkMember(ctx.em, 'ownerId', changes.ownerId);
  if (changes.title !== undefined) deal.title = changes.title.trim();
  if (changes.customerId) deal.customerId = changes.customerId;
  if (changes.amount !== undefined) deal.amount = changes.amount;
  if (changes.currency !== undefined) deal.currency = changes.currency;
  if (changes.ownerId !== undefined) deal.ownerId = changes.ownerId;
  if (changes.expectedCloseDate !== undefined) deal.expectedCloseDate = changes.expectedCloseDate;
  if (changes.externalId !== undefined) deal.externalId = changes.externalId;
  deal.updatedAt = new Date();
  await ctx.em.flush().catch((err: unknown) => {
    throw externalTaken(err, changes.externalId);
  });
  await requestHealthRecompute(ctx.services, ctx.tenantId, [before, deal.customerId]);
  return deal;
}

export async function deleteDeal(ctx: TenantContext, id: string): Promise<void> {
  const deal = await findDeal(ctx.em, id);
  await ctx.em.remove(deal).flush();
  await requestHealthRecompute(ctx.services, ctx.tenantId, [deal.customerId]);
}

export interface ListDealsProps {
  customerId?: string;
  pipelineId?: string;
  stageId?: string;
  ownerId?: string;
  status?: DealStatus;
  limit: number;
  cursor?: string;
}

/** Deals, oldest first, filtered. */
export async function listDeals(ctx: TenantContext, props: ListDealsProps): Promise<Page<Lean<Deal>>> {
  const { customerId, pipelineId, stageId, ownerId, status, cursor } = props;
  return toPage(await dealsPage.all(ctx, customerId ?? null, pipelineId ?? null, stageId ?? null, ownerId ?? null, status ?? null, cursor ?? null, props.limit + 1), props.limit);
}

/** A deal with its history, oldest event first (404 as findDeal's). */
export async function getDeal(ctx: TenantContext, id: string): Promise<{ deal: Lean<Deal>; history: Lean<DealEvent>[] }> {
  if (!isUUID(id)) throw notFound('Deal');
  const [deal, history] = await Promise.all([dealById.one(ctx, id), dealHistory.all(ctx, id)]);
  if (!deal) throw notFound('Deal');
  return { deal, history };
}
