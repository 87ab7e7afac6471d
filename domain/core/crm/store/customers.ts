import { LockMode } from '@mikro-orm/core';
import { contactActivityTypes } from '../../../../entities/core/activity';
import type { FilterQuery } from '@mikro-orm/core';
import { Customer, type CustomerKind, type CustomerRole } from '../../../../entities/core/customer';
import { cursorWhere } from '../../../../lib/pagination';
import type { Em } from '../../../../lib/db';

/** Serialises the find-or-create calls for one address of an organisation (held until the transaction ends). */
export async function lockCustomerEmail(em: Em, tenantId: string, email: string): Promise<void> {
  await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`crm_customer_email:${tenantId}:${email}`]);
}

/** The oldest customer of the em's organisation whose primary e-mail is `email` (already lower-cased). */
export const customerByPrimaryEmail = (em: Em, email: string): Promise<Customer | null> =>
  em.findOne(Customer, { primaryEmail: email }, { orderBy: { id: 'asc' } });

/** The customer with this id, re-read with its row locked until the transaction ends (a concurrent edit waits). */
export const lockCustomer = (em: Em, id: string): Promise<Customer | null> =>
  em.findOne(Customer, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });

/** Those of `ids` that are customers of the organisation. */
export async function existingCustomerIds(em: Em, tenantId: string, ids: string[]): Promise<string[]> {
  const rows = await em.execute<{ id: string }[]>(
    'select id from crm_customers where tenant_id = ? and id in (?) and merged_into is null',
    [tenantId, ids],
  );
  return rows.map((r) => r.id);
}

/** Those of `ids` that are customers of the em's organisation (through the tenant filter; none for no ids). */
export const knownCustomerIds = async (em: Em, ids: string[]): Promise<string[]> =>
  (await em.find(Customer, { id: { $in: ids } }, { fields: ['id'] })).map((c) => c.id);

/** Customer ids by external id, for those of `externalIds` the organisation has. */
export async function customerIdsByExternalId(
  em: Em,
  tenantId: string,
  externalIds: string[],
): Promise<{ id: string; external_id: string }[]> {
  return em.execute<{ id: string; external_id: string }[]>(
    'select id, external_id from crm_customers where tenant_id = ? and external_id in (?) and merged_into is null',
    [tenantId, externalIds],
  );
}

/** Whether the em's organisation has this customer. */
export const hasCustomer = async (em: Em, customerId: string): Promise<boolean> =>
  (await em.count(Customer, { id: customerId })) > 0;

/**
 * customer.lastContactAt = the latest completed call, e-mail or meeting that has happened: at its occurredAt,
 * or at its completion when that came first (a planned one done early, stored before placeDone). A synced
 * activity placed in the future does not count.
 */
export async function refreshLastContact(em: Em, tenantId: string, customerId: string): Promise<void> {
  await em.execute(
    `update crm_customers set last_contact_at = (select max(least(occurred_at, completed_at)) from crm_activities where tenant_id = ? and customer_id = ? and type in (?) and completed_at is not null and least(occurred_at, completed_at) <= now()) where tenant_id = ? and id = ?`,
    [tenantId, customerId, contactActivityTypes, tenantId, customerId],
  );
}

/** Customers of every organisation after a (tenant, id) position, in that order (the nightly pass). */
export async function customersAfter(
  em: Em,
  after: { tenantId: string; id: string },
  limit: number,
): Promise<{ tenant_id: string; id: string }[]> {
  return em.execute<{ tenant_id: string; id: string }[]>(
    'select tenant_id, id from crm_customers where (tenant_id, id) > (?, ?) and merged_into is null order by tenant_id, id limit ?',
    [after.tenantId, after.id, limit],
  );
}

/** Customers in id order after `after` (a cursor id), filtered by external id, kind and role (each when given). */
export function customersById(
  em: Em,
  filter: { externalId?: string; kind?: CustomerKind; role?: CustomerRole; after?: string },
  limit: number,
): Promise<Customer[]> {
  const where: FilterQuery<Customer> = { ...cursorWhere(filter.after, 'asc') };
  if (filter.externalId) where.externalId = filter.externalId;
  if (filter.kind) where.kind = filter.kind;
  if (filter.role) where.roles = { $contains: [filter.role] };
  return em.find(Customer, where, { orderBy: { id: 'asc' }, limit });
}
