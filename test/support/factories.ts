import { Subscription } from '../../entities/billing/subscription';
import { Membership, Role, type Organization } from '../../entities/identity/organization';
import type { User } from '../../entities/identity/user';
import { createUser } from '../../domain/identity/createUser';
import { startSession, type TokenPair } from '../../domain/identity/sessions';
import type { TestStack } from './stack';

export const DEFAULT_PASSWORD = 'correct-horse-battery-staple';

export interface Account {
  user: User;
  org: Organization;
  tenantId: string;
  tokens: TokenPair;
  /** Headers with the access token. */
  auth: { Authorization: string };
  email: string;
  password: string;
}

let counter = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}.${Date.now().toString(36)}.${++counter}@example.test`;

/**
 * An account with its own organisation (owner), optionally on a given tier or with a running trial, and a
 * signed-in session. Goes through the domain functions the routes use, not through SQL.
 */
export async function createAccount(
  stack: TestStack,
  options: {
    email?: string;
    password?: string;
    tier?: string;
    trialModules?: string[];
    platformAdmin?: boolean;
    displayName?: string;
  } = {},
): Promise<Account> {
  const em = stack.services.orm.em.fork();
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? DEFAULT_PASSWORD;
  const { user, organization } = await createUser(em, {
    email,
    password,
    displayName: options.displayName ?? email.split('@')[0],
    emailConfirmed: true,
    isPlatformAdmin: options.platformAdmin ?? false,
  });
  await em.flush();
  if (options.tier || options.trialModules) {
    const sub = await em.findOneOrFail(Subscription, { tenantId: organization.id }, { filters: { tenant: false } });
    if (options.tier) sub.tier = options.tier;
    if (options.trialModules) {
      sub.trialStartedAt = new Date();
      sub.trialEndsAt = new Date(Date.now() + 14 * 86_400_000);
      sub.trialModules = options.trialModules;
      sub.status = 'trialing';
    }
    await em.flush();
  }
  const tokens = await startSession(stack.services, em, user, organization.id);
  return {
    user,
    org: organization,
    tenantId: organization.id,
    tokens,
    auth: { Authorization: `Bearer ${tokens.accessToken}` },
    email,
    password,
  };
}

/** Adds a new user to an existing organisation with the given role key, signed in to that organisation. */
export async function addMember(
  stack: TestStack,
  owner: Account,
  roleKey = 'member',
  options: { email?: string } = {},
): Promise<Account> {
  const em = stack.services.orm.em.fork();
  const email = options.email ?? uniqueEmail(roleKey);
  const { user } = await createUser(em, {
    email,
    password: DEFAULT_PASSWORD,
    displayName: email.split('@')[0],
    emailConfirmed: true,
  });
  const role = await em.findOneOrFail(Role, { tenantId: owner.tenantId, key: roleKey }, { filters: { tenant: false } });
  const membership = em.create(Membership, { tenantId: owner.tenantId, user });
  membership.roles.add(role);
  await em.flush();
  const tokens = await startSession(stack.services, em, user, owner.tenantId);
  return {
    user,
    org: owner.org,
    tenantId: owner.tenantId,
    tokens,
    auth: { Authorization: `Bearer ${tokens.accessToken}` },
    email,
    password: DEFAULT_PASSWORD,
  };
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
