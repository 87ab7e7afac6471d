import { Deal } from '../../../entities/core/deal';
import type { TenantContext } from '../../context';
import { checkMember } from './members';
import { requestHealthRecompute } from './requestHealthRecompute';
import type { DealInput } from './createDeal';
import { findDeal, checkCustomer, externalTaken } from './dealLookup';

/** Edits a deal's details (any status); its stage and status change only through move, win, lose and reopen. */
export async function updateDeal(
  ctx: TenantContext,
  id: string,
  changes: Partial<Omit<DealInput, 'stageId'>>,
): Promise<Deal> {
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
