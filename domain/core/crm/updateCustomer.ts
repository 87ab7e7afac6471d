import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { isUUID } from 'class-validator';
import { badRequest, conflict, notFound } from '../../../lib/errors';
import { Customer } from '../../../entities/core/customer';
import type { TenantContext } from '../../context';
import { normaliseAddresses, normaliseEmails, normalisePhones, primaryOf, searchTextOf } from './contactDetails';
import { applyCustomValues } from './customValues';
import { fieldDefinitions } from './fieldDefinitions';
import { normaliseRoles, normaliseTags, type CustomerInput } from './customerInput';
import { checkMember } from './members';
import { lockCustomer } from './store/customers';
import { emitEvent } from '../../webhooks/emitEvent';
import { customerData } from '../../webhooks/payloads';

/**
 * Edits a customer: given lists (roles, tags, emails, phones, addresses) replace the current ones; `custom`
 * merges (null removes a key).
 *
 * The row is read `for update` in the transaction that writes it: the edit is a read-modify-write of the whole
 * row (the custom JSON merged in memory, the search text and primary e-mail derived from the lists), so two
 * edits of one customer at once are applied one after the other, each on the other's result, and neither loses
 * the other's custom values or lists. A merge in SQL would protect `custom` only.
 */
export async function updateCustomer(ctx: TenantContext, id: string, input: Partial<CustomerInput>): Promise<Customer> {
  if (!isUUID(id)) throw notFound('Customer');
  const defs = input.custom ? await fieldDefinitions(ctx) : null;
  try {
    return await ctx.em.transactional(async (em) => {
      const customer = await lockCustomer(em, id);
      if (!customer) throw notFound('Customer');
      if (input.custom && defs) {
        const { values, errors } = applyCustomValues(defs, customer.custom, input.custom);
        if (errors.length) throw badRequest('validation_failed', 'Invalid custom field values', errors);
        customer.custom = values;
      }
      if (input.ownerId !== undefined) {
        await checkMember(em, 'ownerId', input.ownerId);
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
      emitEvent(em, ctx.tenantId, 'customer.updated', customerData(customer));
      await em.flush();
      return customer;
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException)
      throw conflict('external_id_taken', `Another customer has the externalId ${input.externalId}`);
    throw err;
  }
}
