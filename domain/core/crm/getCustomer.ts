import { isUUID } from 'class-validator';
import { Customer } from '../../../entities/core/customer';
import { notFound } from '../../../lib/errors';
import { lean } from '../../../lib/lean';
import type { TenantContext } from '../../context';
import { listedColumns, type ListedCustomer } from './customerPages';

/**
 * The customer of the context's organisation with this id, as a managed entity, for the use cases that change
 * it or check it before a write (invoicing, booking); 404 `not_found` when there is none (another
 * organisation's id included). GET /api/customers/{id} reads it lean (readCustomer).
 */
export async function getCustomer(ctx: TenantContext, id: string): Promise<Customer> {
  const customer = isUUID(id) ? await ctx.em.findOne(Customer, { id }) : null;
  if (!customer) throw notFound('Customer');
  return customer;
}

// A lean statement (docs/database-path.md): the columns a customer is shown with (no search text).
const customerById = lean(Customer, { columns: listedColumns, where: 'id = $1' });

/** The customer with this id as presented, or 404 as getCustomer. */
export const readCustomer = (ctx: TenantContext, id: string): Promise<ListedCustomer> => customerById.byId('Customer', ctx, id);
