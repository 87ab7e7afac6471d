import { isUUID } from 'class-validator';
import { Customer } from '../../../entities/core/customer';
import { AppError, notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { customerMergedError } from './duplicates/mergedCustomer';
import { customerById, type ListedCustomer } from './store/customerPages';

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

/** The customer with this id as presented, or 404 as getCustomer (`customer_merged` naming its survivor when merged). */
export async function readCustomer(ctx: TenantContext, id: string): Promise<ListedCustomer> {
  try {
    return await customerById.byId('Customer', ctx, id);
  } catch (err) {
    if (err instanceof AppError && err.status === 404) throw (await customerMergedError(ctx, id)) ?? err;
    throw err;
  }
}
