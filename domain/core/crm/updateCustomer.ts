import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { badRequest, conflict } from '../../../lib/errors';
import type { Customer } from '../../../entities/core/customer';
import type { TenantContext } from '../../context';
import { normaliseAddresses, normaliseEmails, normalisePhones, primaryOf, searchTextOf } from './contactDetails';
import { applyCustomValues, fieldDefinitions } from './customFields';
import { normaliseRoles, normaliseTags, type CustomerInput } from './customerInput';
import { getCustomer } from './getCustomer';
import { checkMember } from './members';

/**
 * Edits a customer: given lists (roles, tags, emails, phones, addresses) replace the current ones; `custom`
 * merges (null removes a key).
 */
export async function updateCustomer(ctx: TenantContext, id: string, input: Partial<CustomerInput>): Promise<Customer> {
  const customer = await getCustomer(ctx, id);
  if (input.custom) {
    const { values, errors } = applyCustomValues(await fieldDefinitions(ctx), customer.custom, input.custom);
    if (errors.length) throw badRequest('validation_failed', 'Invalid custom field values', errors);
    customer.custom = values;
  }
  if (input.ownerId !== undefined) {
    await checkMember(ctx.em, 'ownerId', input.ownerId);
    customer.ownerId = input.ownerId;
  }
  if (input.kind) customer.kind = input.kind;
  if (input.name !== undefined) customer.name = input.name.trim();
  if (input.roles) customer.roles = normaliseRoles(input.roles);
  if (input.tags) customer.tags = normaliseTags(input.tags);
  if (input.emails) customer.emails = normaliseEmails(input.emails);
  if (input.phones) customer.phones = normalisePhones(input.phones);
  if (input.addresses) customer.addresses = normaliseAddresses(input.addresses);
  if (input.externalId !== undefined) customer.externalId = input.externalId;
  customer.primaryEmail = primaryOf(customer.emails);
  customer.searchText = searchTextOf(customer.name, customer.emails, customer.phones);
  customer.updatedAt = new Date();
  try {
    await ctx.em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw conflict('external_id_taken', `Another customer has the externalId ${input.externalId}`);
    throw err;
  }
  return customer;
}
