import { isUUID } from 'class-validator';
import { Customer } from '../../../entities/core/customer';
import { notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';

/**
 * The customer of the context's organisation with this id; 404 `not_found` when there is none (another
 * organisation's id included). Other modules (invoicing, booking) call it to check the customer they are given.
 */
export async function getCustomer(ctx: TenantContext, id: string): Promise<Customer> {
  const customer = isUUID(id) ? await ctx.em.findOne(Customer, { id }) : null;
  if (!customer) throw notFound('Customer');
  return customer;
}
