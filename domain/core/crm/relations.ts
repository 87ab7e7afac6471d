import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { Customer } from '../../../entities/core/customer';
import { CustomerRelation, relationInverse, type RelationType } from '../../../entities/core/relation';
import { conflict, invalidField, notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { getCustomer } from './getCustomer';
import { relationOf, relationsWithOthers } from './store/relations';

/** A relation as seen from one customer: its type read from that customer, and the customer at the other end. */
export interface RelationFromOneSide {
  id: string;
  /** The type read from this customer ("employee_of" from Ada, "employer_of" from Acme). */
  type: string;
  /** outgoing: stored from this customer; incoming: stored from the other one. */
  direction: 'outgoing' | 'incoming';
  customerId: string;
  customerName: string;
  customerKind: string;
  createdAt: Date;
}

/**
 * Relates `fromId` to `toId` ("fromId <type> toId"); 409 `relation_exists` for the same triple, and for a kind
 * that reads the same both ways (partner_of, family_of, other) the pair already has from the other end: both
 * refused by the table's unique indexes. (Inverse names such as employer_of are not stored kinds: "B employer_of
 * A" can only be given as "A employee_of B", the same triple.)
 */
export async function addRelation(ctx: TenantContext, fromId: string, props: { type: RelationType; customerId: string }): Promise<RelationFromOneSide> {
  await getCustomer(ctx, fromId);
  if (props.customerId === fromId) throw invalidField('customerId', 'must be another customer');
  const other = await ctx.em.findOne(Customer, { id: props.customerId }, { fields: ['id', 'name', 'kind'] });
  if (!other) throw invalidField('customerId', 'is not a customer of this organisation');
  const relation = ctx.em.create(CustomerRelation, { tenantId: ctx.tenantId, fromId, toId: other.id, type: props.type, createdBy: ctx.userId });
  try {
    await ctx.em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw conflict('relation_exists', 'These customers already have this relation');
    throw err;
  }
  return { id: relation.id, type: props.type, direction: 'outgoing', customerId: other.id, customerName: other.name, customerKind: other.kind, createdAt: relation.createdAt };
}

/** Removes a relation from either of its ends (404 when the relation does not involve the customer). */
export async function removeRelation(ctx: TenantContext, customerId: string, relationId: string): Promise<void> {
  await getCustomer(ctx, customerId);
  const relation = await relationOf(ctx.em, customerId, relationId);
  if (!relation) throw notFound('Relation');
  await ctx.em.remove(relation).flush();
}

/** Every relation of a customer, read from its side, oldest first. */
export async function relationsOf(ctx: TenantContext, customerId: string): Promise<RelationFromOneSide[]> {
  const relations = await relationsWithOthers.all(ctx, customerId);
  return relations.map((r) => {
    const outgoing = r.fromId === customerId;
    return {
      id: r.id,
      type: outgoing ? r.type : relationInverse[r.type],
      direction: outgoing ? 'outgoing' : 'incoming',
      customerId: outgoing ? r.toId : r.fromId,
      customerName: r.otherName as string,
      customerKind: r.otherKind as string,
      createdAt: r.createdAt,
    };
  });
}
