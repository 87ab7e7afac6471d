import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { Customer } from '../../../entities/core/customer';
import { badRequest, conflict } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { notify } from '../../notifications/notify';
import { normaliseAddresses, normaliseEmails, normalisePhones, primaryOf, searchTextOf } from './contactDetails';
import { applyCustomValues } from './customValues';
import { fieldDefinitions } from './fieldDefinitions';
import { normaliseRoles, normaliseTags, type CustomerInput } from './customerInput';
import { checkMember } from './members';
import { emitEvent } from '../../webhooks/emitEvent';
import { customerData } from '../../webhooks/payloads';

/** Creates a customer; custom values are checked against the organisation's fields (400 naming `custom.<key>`). */
export async function createCustomer(ctx: TenantContext, input: CustomerInput): Promise<Customer> {
  const defs = await fieldDefinitions(ctx);
  const { values, errors } = applyCustomValues(defs, {}, input.custom ?? {});
  if (errors.length) throw badRequest('validation_failed', 'Invalid custom field values', errors);
  await checkMember(ctx.em, 'ownerId', input.ownerId);
  const emails = normaliseEmails(input.emails ?? []);
  const phones = normalisePhones(input.phones ?? []);
  const name = input.name.trim();
  const customer = ctx.em.create(Customer, {
    tenantId: ctx.tenantId,
    kind: input.kind,
    name,
    roles: normaliseRoles(input.roles ?? []),
    tags: normaliseTags(input.tags ?? []),
    emails,
    phones,
    addresses: normaliseAddresses(input.addresses ?? []),
    primaryEmail: primaryOf(emails),
    custom: values,
    ownerId: input.ownerId ?? null,
    externalId: input.externalId ?? null,
    lastContactAt: null,
    searchText: searchTextOf(name, emails, phones),
  });
  emitEvent(ctx.em, ctx.tenantId, 'customer.created', customerData(customer));
  try {
    await ctx.em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException)
      throw conflict('external_id_taken', `Another customer has the externalId ${input.externalId}`);
    throw err;
  }
  await notify(ctx.services, 'core', [
    {
      event: 'customer.created',
      tenantId: ctx.tenantId,
      subject: { customerId: customer.id },
      data: { name, source: 'api' },
    },
  ]);
  return customer;
}
