import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { User } from '../../entities/identity/user';
import type { Services } from '../services';
import { audit } from '../platform/audit';
import { homeOrganization } from './homeOrganization';
import { refuseDisabledAccount } from './refuseDisabledAccount';
import { refuseWhereSsoRequired } from './sso/refuseWhereSsoRequired';
import { assertionOptions, checkPasskeyAssertion } from './passkeyFactor';
import { startSession, type DeviceInfo, type TokenPair } from './sessions';

/** Options of a password-less sign-in: no account named, any discoverable passkey of the site, user verified. */
export const passkeyLoginOptions = (services: Services): Promise<PublicKeyCredentialRequestOptionsJSON> =>
  assertionOptions(services, services.orm.em.fork(), { kind: 'login' }, null);

/**
 * Signs in with a passkey alone (its user verification, a PIN or biometrics, being the other factor): opens a
 * session in the account's home organisation. A passkey is a second factor, so an organisation requiring one
 * asks nothing more. The assertion must answer options of passkeyLoginOptions (single use, 401
 * `mfa_challenge_invalid`) and be valid (401 `passkey_invalid`, counted against the passkey's account); a
 * disabled account is 401 `account_disabled`. Audited (`auth.login`, factor `passkey`).
 */
export async function passkeyLogin(
  services: Services,
  props: { response: AuthenticationResponseJSON; device?: DeviceInfo },
): Promise<TokenPair> {
  const em = services.orm.em.fork();
  const passkey = await checkPasskeyAssertion(services, em, {
    ceremony: { kind: 'login' },
    response: props.response,
    userId: null,
  });
  const user = await em.findOneOrFail(User, { id: passkey.userId });
  const ip = props.device?.ip;
  await refuseDisabledAccount(em, user, ip);
  await refuseWhereSsoRequired(em, user.email, user.isPlatformAdmin);
  const tenantId = await homeOrganization(em, user);
  audit(em, {
    action: 'auth.login',
    actorId: user.id,
    tenantId,
    targetType: 'user',
    targetId: user.id,
    ip,
    data: { factor: 'passkey', passkeyId: passkey.id },
  });
  return startSession(services, em, user, tenantId, props.device);
}
