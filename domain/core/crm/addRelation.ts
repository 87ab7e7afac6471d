import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { Customer } from '../../../entities/core/customer';
import { CustomerRelation, type RelationType } from '../../../entities/core/relation';
import { conflict, invalidField } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { getCustomer } from './getCustomer';
import type { RelationFromOneSide } from './relationsOf';

/**
 * Relates `fromId` to `toId` ("fromId <type> toId"); 409 `relation_exists` for the same triple, and for a kind
 * that reads the same both ways (partner_of, family_of, other) the pair already has from the other end: both
 * refused by the table's unique indexes. (Inverse names such as employer_of are not stored kinds: "B employer_of
 * A" can only be given as "A employee_of B", the same triple.)
 */
export async function addRelation(
  ctx: TenantContext,
  fromId: string,
  props: { type: RelationType; customerId: string },
): Promise<RelationFromOneSide> {
  await getCustomer(ctx, fromId);
  if (props.customerId === fromId) throw invalidField('customerId', 'must be another customer');
  const other = await ctx.em.findOne(Customer, { id: props.customerId }, { fields: ['id', 'name', 'kind'] });
  if (!other) throw invalidField('customerId', 'is not a customer of this organisation');
  const relation = ctx.em.create(CustomerRelation, {
    tenantId: ctx.tenantId,
    fromId,
    toId: other.id,
    type: props.type,
    createdBy: ctx.userId,
  });
  try {
    await ctx.em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException)
      throw conflict('relation_exists', 'These customers already have this relation');
    throw err;
  }
  return {
    id: relation.id,
    type: props.type,
    direction: 'outgoing',
    customerId: other.id,
    customerName: other.name,
    customerKind: other.kind,
    createdAt: relation.createdAt,
  };
}
