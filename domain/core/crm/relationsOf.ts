import { relationInverse } from '../../../entities/core/relation';
import type { TenantContext } from '../../context';
import { relationsWithOthers } from './store/relations';

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
