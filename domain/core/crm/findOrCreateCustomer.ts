import { Customer } from '../../../entities/core/customer';
import { invalidField } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { notify, type Note } from '../../notifications/notify';
import { isEmail, normaliseEmails, normalisePhones, searchTextOf } from './contactDetails';
import { customerByPrimaryEmail, lockCustomerEmail } from './store/customers';

export interface FindOrCreateCustomerProps {
  /** Name given to a new customer (an existing one keeps its own). */
  name: string;
  email: string;
  phone?: string;
}

/**
 * The customer of the organisation whose primary e-mail is `email` (case-insensitive; the oldest when several
 * share it), or a new person with that name, e-mail and phone. Calls for one address are serialised by an
 * advisory lock, so two concurrent bookings by the same visitor make one customer. Used by booking (anonymous
 * bookings), invoicing and the e-mail logging route; runs in the caller's transaction when there is one. A caller
 * in a transaction passes `notes`: the customer.created note is added there, for it to send once it committed (the
 * hub must not hear of a customer that a rollback removes).
 */
export async function findOrCreateCustomer(
  ctx: TenantContext,
  props: FindOrCreateCustomerProps,
  notes?: Note<'core'>[],
): Promise<Customer> {
  const email = props.email.trim().toLowerCase();
  if (!isEmail(email)) throw invalidField('email', 'must be an e-mail address');
  const name = props.name.trim().slice(0, 200) || email;
  let created = false;
  const customer = await ctx.em.transactional(async (em) => {
    await lockCustomerEmail(em, ctx.tenantId, email);
    const existing = await customerByPrimaryEmail(em, email);
    if (existing) return existing;
    const emails = normaliseEmails([{ value: email, primary: true }]);
    const phones = props.phone?.trim() ? normalisePhones([{ value: props.phone.slice(0, 40), primary: true }]) : [];
    created = true;
    return em.create(Customer, {
      tenantId: ctx.tenantId,
      kind: 'person',
      name,
      roles: [],
      tags: [],
      emails,
      phones,
      addresses: [],
      primaryEmail: email,
      custom: {},
      ownerId: null,
      externalId: null,
      lastContactAt: null,
      searchText: searchTextOf(name, emails, phones),
    });
  });
  if (!created) return customer;
  const note: Note<'core'> = {
    event: 'customer.created',
    tenantId: ctx.tenantId,
    subject: { customerId: customer.id },
    data: { name: customer.name, source: 'find_or_create' },
  };
  if (notes) notes.push(note);
  else await notify(ctx.services, 'core', [note]);
  return customer;
}
