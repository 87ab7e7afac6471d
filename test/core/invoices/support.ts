import { tenantContext } from '../../../domain/context';
import { findOrCreateCustomer } from '../../../domain/core/crm/findOrCreateCustomer';
import { getBusiness } from '../../../domain/core/org/getBusiness';
import { Customer } from '../../../entities/core/customer';
import { setSubscription } from '../../support/billing';
import { createAccount, type Account } from '../../support/factories';
import type { TestStack } from '../../support/stack';

/** An organisation entitled to core, with a complete business record (seller details; `null` leaves one out), and its owner. */
export async function invoicingOrg(
  stack: TestStack,
  seller: { vatNumber?: string | null; siren?: string | null } = {},
): Promise<Account> {
  const account = await createAccount(stack);
  await setSubscription(stack, account.tenantId, { tier: 'enterprise' });
  const ctx = tenantContext(stack.services, account.tenantId, account.user.id);
  const business = await getBusiness(ctx);
  ctx.em.assign(business, {
    legalName: 'Atelier Dupont SAS',
    siren: seller.siren === undefined ? '732829320' : seller.siren,
    siret: seller.siren === null ? null : '73282932000074',
    vatNumber: seller.vatNumber === undefined ? 'FR44732829320' : seller.vatNumber,
    email: 'factures@atelier-dupont.test',
    address: {
      line1: '12 rue des Lilas',
      line2: null,
      postalCode: '75011',
      city: 'Paris',
      region: null,
      country: 'FR',
    },
    iban: 'FR7630006000011234567890189',
    bic: 'AGRIFRPP',
  });
  await ctx.em.flush();
  return account;
}

/** A CRM customer of the organisation with a billing address (none when `address` is false). */
export async function customerOf(
  stack: TestStack,
  account: Account,
  options: { name?: string; country?: string; address?: boolean } = {},
): Promise<Customer> {
  const ctx = tenantContext(stack.services, account.tenantId, account.user.id);
  const customer = await findOrCreateCustomer(ctx, {
    name: options.name ?? 'Client Martin SARL',
    email: `buyer.${Math.random().toString(36).slice(2)}@example.test`,
  });
  if (options.address !== false) {
    customer.addresses = [
      {
        type: 'billing',
        line1: '5 avenue Foch',
        line2: 'Bâtiment B',
        postalCode: '69006',
        city: 'Lyon',
        region: null,
        country: options.country ?? 'FR',
        primary: true,
      },
    ];
    await ctx.em.flush();
  }
  return customer;
}

export const line = (extra: Record<string, unknown> = {}) => ({
  description: 'Conseil',
  quantity: 2,
  unitPriceCents: 10_000,
  vatRate: 20,
  vatCategory: 'S',
  ...extra,
});

/** Creates a draft through the API and returns its body. */
export async function draft(
  stack: TestStack,
  account: Account,
  customerId: string,
  body: Record<string, unknown> = {},
) {
  const res = await stack.http
    .post('/api/invoices')
    .set(account.auth)
    .send({ customerId, lines: [line()], ...body });
  if (res.status !== 201) throw new Error(`draft not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string } & Record<string, unknown>;
}

/** Creates and issues an invoice; returns the issued body. */
export async function issued(
  stack: TestStack,
  account: Account,
  customerId: string,
  body: Record<string, unknown> = {},
) {
  const made = await draft(stack, account, customerId, body);
  const res = await stack.http.post(`/api/invoices/${made.id}/issue`).set(account.auth);
  if (res.status !== 200) throw new Error(`not issued: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; number: string } & Record<string, unknown>;
}
