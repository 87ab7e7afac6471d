import { ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import { conflict } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { notify } from '../../notifications/notify';
import { getCustomer } from './getCustomer';

/**
 * Deletes a customer with its activities, relations and score. Refused (409 `customer_in_use`) while records of
 * other kinds refer to it (deals; invoices and appointments of their modules): delete or reassign those first.
 * The database's foreign keys (on delete restrict) decide, so a reference made meanwhile counts too.
 */
export async function deleteCustomer(ctx: TenantContext, id: string): Promise<void> {
  const customer = await getCustomer(ctx, id);
  try {
    await ctx.em.remove(customer).flush();
  } catch (err) {
    if (err instanceof ForeignKeyConstraintViolationException)
      throw conflict(
        'customer_in_use',
        'Deals, invoices or other records refer to this customer; delete or reassign them first',
      );
    throw err;
  }
  await notify(ctx.services, 'core', [
    { event: 'customer.deleted', tenantId: ctx.tenantId, subject: { customerId: id }, data: { name: customer.name } },
  ]);
}
