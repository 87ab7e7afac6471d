import { CustomerRelation } from '../../../../entities/core/relation';
import type { Em } from '../../../../lib/db';
import { lean } from '../../../../lib/lean';

/** The relation with this id that involves the customer, at either end. */
export const relationOf = (em: Em, customerId: string, relationId: string): Promise<CustomerRelation | null> =>
  em.findOne(CustomerRelation, { id: relationId, $or: [{ fromId: customerId }, { toId: customerId }] });

// A lean statement (docs/database-path.md): the relations of a customer with the customer at their other end,
// joined through the relation's own ids (the relation carries the tenant).
export const relationsWithOthers = lean(CustomerRelation, {
  join: 'join crm_customers other on other.id = case when crm_relations.from_id = $1::uuid then crm_relations.to_id else crm_relations.from_id end and other.tenant_id = crm_relations.tenant_id',
  where: 'crm_relations.from_id = $1::uuid or crm_relations.to_id = $1::uuid',
  orderBy: 'crm_relations.id asc',
  limit: 500,
  extra: { otherName: 'other.name', otherKind: 'other.kind' },
});
