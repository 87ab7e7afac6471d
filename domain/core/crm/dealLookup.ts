import { isUUID } from 'class-validator';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { Deal } from '../../../entities/core/deal';
import { PipelineStage } from '../../../entities/core/pipeline';
import type { Em } from '../../../lib/db';
import { conflict, invalidField, notFound } from '../../../lib/errors';
import { hasCustomer } from './store/customers';

/** The lookups and checks the deal use cases share. */

/** The deal with this id, or 404 (a malformed id included). */
export async function findDeal(em: Em, id: string): Promise<Deal> {
  const deal = isUUID(id) ? await em.findOne(Deal, { id }) : null;
  if (!deal) throw notFound('Deal');
  return deal;
}

/** 400 on customerId unless it names a customer of the organisation. */
export async function checkCustomer(em: Em, customerId: string) {
  if (!(await hasCustomer(em, customerId))) throw invalidField('customerId', 'is not a customer of this organisation');
}

/** The stage with this id, or 400 on stageId. */
export async function stageOf(em: Em, stageId: string): Promise<PipelineStage> {
  const stage = await em.findOne(PipelineStage, { id: stageId });
  if (!stage) throw invalidField('stageId', 'is not a stage of a pipeline of this organisation');
  return stage;
}

/** A unique violation on externalId as 409 `external_id_taken`; any other error as it is. */
export const externalTaken = (err: unknown, externalId: string | null | undefined) => {
  if (err instanceof UniqueConstraintViolationException)
    return conflict('external_id_taken', `Another deal has the externalId ${externalId}`);
  return err;
};
