import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { Passkey } from '../../entities/identity/passkey';
import type { Em } from '../../lib/db';
import { badRequest, unauthorized } from '../../lib/errors';
import type { Services } from '../services';
import { SIGNIN_FAILURE_WINDOW_SECONDS } from './admitPasswordAttempt';
import { claimedChallenge, relyingParty, webauthn } from './passkeyRules';
import { admitFactorAttempt } from './secondFactor';
import { countFactorFailure } from './store/mfa';
import {
  advancePasskeyCounter,
  passkeyByCredential,
  passkeysOf,
  saveCeremony,
  takeCeremony,
  type CeremonyKind,
} from './store/passkeys';

export const passkeyInvalid = () =>
  unauthorized('passkey_invalid', 'The passkey response is wrong, for another site or from a cloned authenticator');
export const ceremonyInvalid = () =>
  unauthorized('mfa_challenge_invalid', 'The passkey challenge is unknown, expired or used; ask for new options');

/** A pending assertion: a sign-in's second factor, a factor check of a session, or a password-less sign-in. */
export type AssertionCeremony = { kind: Extract<CeremonyKind, 'factor' | 'check'>; id: string } | { kind: 'login' };

/**
 * Options of an assertion (navigator.credentials.get): a fresh challenge kept MFA_CHALLENGE_TTL_SECONDS for this
 * ceremony, single use. With `userId`, only that account's passkeys are allowed (400 `mfa_not_enrolled` when it
 * has none); without, any discoverable passkey of the site, user verification required (it is the only factor).
 */
export async function assertionOptions(
  services: Services,
  em: Em,
  ceremony: AssertionCeremony,
  userId: string | null,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const passkeys = userId ? await passkeysOf(em, userId) : [];
  if (userId && !passkeys.length) throw badRequest('mfa_not_enrolled', 'No passkey is registered');
  const ttl = services.config.MFA_CHALLENGE_TTL_SECONDS;
  const options = await webauthn().generateAuthenticationOptions({
    rpID: relyingParty(services.config).id,
    allowCredentials: passkeys.map((k) => ({ id: k.credentialId, transports: k.transports })),
    userVerification: userId ? 'preferred' : 'required',
    timeout: ttl * 1000,
  });
  const id = ceremony.kind === 'login' ? options.challenge : ceremony.id;
  await saveCeremony(services.redis, services.key, ceremony.kind, id, options.challenge, ttl * 1000);
  return options;
}

/**
 * Checks an assertion answering a pending ceremony (used up by the check, passed or not) and answers its passkey,
 * whose counter is advanced. With `userId` the passkey must be that account's. Throttled with the TOTP codes
 * (MFA_FAILURES_PER_ACCOUNT, 429); an unknown or used ceremony is 401 `mfa_challenge_invalid`; an unknown
 * credential, a wrong signature, origin or relying party, a counter that did not grow (a cloned authenticator)
 * are 401 `passkey_invalid` and count as failures of the passkey's account.
 */
export async function checkPasskeyAssertion(
  services: Services,
  em: Em,
  props: { ceremony: AssertionCeremony; response: AuthenticationResponseJSON; userId: string | null },
): Promise<Passkey> {
  const { ceremony, response, userId } = props;
  const passkey = await passkeyByCredential(em, response.id);
  const owner = userId ?? passkey?.userId ?? null;
  if (owner) await admitFactorAttempt(services, owner);
  const id = ceremony.kind === 'login' ? claimedChallenge(response.response.clientDataJSON) : ceremony.id;
  const expected = id ? await takeCeremony(services.redis, services.key, ceremony.kind, id) : null;
  if (!expected) throw ceremonyInvalid();
  const fail = async () => {
    if (owner) await countFactorFailure(services.redis, services.key, owner, SIGNIN_FAILURE_WINDOW_SECONDS * 1000);
    return passkeyInvalid();
  };
  if (!passkey || (userId && passkey.userId !== userId)) throw await fail();
  const rp = relyingParty(services.config);
  const result = await webauthn()
    .verifyAuthenticationResponse({
      response,
      expectedChallenge: expected,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: ceremony.kind === 'login',
    })
    .catch(() => null);
  if (!result?.verified) throw await fail();
  const newCounter = result.authenticationInfo.newCounter;
  if (!(await advancePasskeyCounter(em, passkey.id, passkey.counter, newCounter))) throw await fail();
  return passkey;
}
