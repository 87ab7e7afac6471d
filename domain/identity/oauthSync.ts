import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { conflict, unauthorized } from '../../lib/errors';
import { ExternalIdentity, type User } from '../../entities/identity/user';
import type { Services } from '../services';
import { audit } from '../platform/audit';
import { createUser, normalizeEmail } from './createUser';
import { homeOrganization } from './homeOrganization';
import { startSession, type DeviceInfo, type TokenPair } from './sessions';
import { externalIdentity, userByEmail } from './store/users';

export interface OAuthSyncProps {
  /** Provider name, e.g. google. */
  provider: string;
  /** The provider's stable user id. */
  subject: string;
  email: string;
  /** The provider vouches for the address. */
  emailVerified: boolean;
  displayName?: string;
  device?: DeviceInfo;
}

export interface OAuthSyncResult {
  user: User;
  /** A new account was created. */
  created: boolean;
  /** An existing account was linked to this provider identity. */
  linked: boolean;
  tokens: TokenPair;
}

/**
 * Signs in a user authenticated by an external provider (internal bridge), creating or linking the account:
 * a known provider identity signs its account in; otherwise an account with the same address is linked only
 * when the provider verified the address (else 409 `email_not_verified`: linking would let anyone who can
 * claim an address at some provider take the account over); otherwise a password-less account is created.
 */
export async function oauthSync(services: Services, props: OAuthSyncProps): Promise<OAuthSyncResult> {
  const em = services.orm.em.fork();
  const email = normalizeEmail(props.email);
  const identity = await externalIdentity(em, props.provider, props.subject);
  let user = identity?.user ?? (await userByEmail(em, email));
  const linked = !identity && !!user;
  const created = !user;
  if (linked && !props.emailVerified)
    throw conflict(
      'email_not_verified',
      'An account with this address exists and the provider has not verified the address',
    );
  let tenantId: string | undefined;
  if (!user) {
    const account = await createUser(em, {
      email,
      password: null,
      displayName: props.displayName?.trim() || email.split('@')[0],
      emailConfirmed: props.emailVerified,
      ip: props.device?.ip,
    });
    ({ user } = account);
    tenantId = account.organization.id;
  }
  if (user.disabledAt) throw unauthorized('account_disabled', 'This account is disabled');
  tenantId ??= await homeOrganization(em, user);
  if (!identity) em.create(ExternalIdentity, { user, provider: props.provider, subject: props.subject });
  if (props.emailVerified && user.email === email) user.emailConfirmedAt ??= new Date();
  audit(em, {
    action: 'auth.login',
    actorId: user.id,
    tenantId,
    targetType: 'user',
    targetId: user.id,
    ip: props.device?.ip,
    data: { via: props.provider, created, linked },
  });
  try {
    return { user, created, linked, tokens: await startSession(services, em, user, tenantId, props.device) };
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException)
      throw conflict('sync_conflict', 'This identity or address was registered concurrently; retry');
    throw err;
  }
}
