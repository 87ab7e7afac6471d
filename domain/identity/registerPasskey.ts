import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { Passkey } from '../../entities/identity/passkey';
import { User } from '../../entities/identity/user';
import type { Em } from '../../lib/db';
import { badRequest, conflict } from '../../lib/errors';
import type { Services } from '../services';
import { audit } from '../platform/audit';
import { endOtherSessions } from './endSession';
import { relyingParty, webauthn } from './passkeyRules';
import { passkeysOf, saveCeremony, takeCeremony } from './store/passkeys';

const taken = () => conflict('passkey_exists', 'This passkey is already registered');

/** Passkeys one account may hold. */
export const PASSKEYS_PER_ACCOUNT = 20;

/**
 * Options of a passkey registration (navigator.credentials.create) for the account: a fresh challenge kept
 * MFA_CHALLENGE_TTL_SECONDS, single use (a newer request replaces it); the account's passkeys excluded (the
 * authenticator will not make a second one); a discoverable credential preferred, so it also signs in without
 * a password; no attestation asked (the key is trusted as the account's because the signed-in user adds it).
 */
export async function startPasskeyRegistration(
  services: Services,
  em: Em,
  props: { userId: string },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const user = await em.findOneOrFail(User, { id: props.userId });
  const rp = relyingParty(services.config);
  const ttl = services.config.MFA_CHALLENGE_TTL_SECONDS;
  const options = await webauthn().generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    excludeCredentials: (await passkeysOf(em, user.id)).map((k) => ({ id: k.credentialId, transports: k.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    timeout: ttl * 1000,
  });
  await saveCeremony(services.redis, services.key, 'register', user.id, options.challenge, ttl * 1000);
  return options;
}

/**
 * Finishes a registration: checks the authenticator's answer to the pending options (used up, passed or not: 400
 * `passkey_challenge_invalid` without one) against the challenge, origin and relying party (400
 * `passkey_invalid`), and keeps the credential id, public key, counter and transports under a name. 409
 * `passkey_exists` for a credential already registered, 409 `passkey_limit` past PASSKEYS_PER_ACCOUNT. Every other session of the account ends, as for a
 * TOTP factor. Audited (`mfa.passkey_added`).
 */
export async function addPasskey(
  services: Services,
  em: Em,
  props: {
    userId: string;
    tenantId: string;
    name: string;
    response: RegistrationResponseJSON;
    keepSessionId: string;
    ip?: string | null;
  },
): Promise<Passkey> {
  if ((await passkeysOf(em, props.userId)).length >= PASSKEYS_PER_ACCOUNT)
    throw conflict('passkey_limit', `An account holds ${PASSKEYS_PER_ACCOUNT} passkeys at most; remove one first`);
  const expected = await takeCeremony(services.redis, services.key, 'register', props.userId);
  if (!expected)
    throw badRequest('passkey_challenge_invalid', 'No passkey registration is pending (expired or used); start again');
  const rp = relyingParty(services.config);
  const result = await webauthn()
    .verifyRegistrationResponse({
      response: props.response,
      expectedChallenge: expected,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: false,
    })
    .catch(() => null);
  if (!result?.verified)
    throw badRequest('passkey_invalid', 'The authenticator response is wrong or for another site or challenge');
  const { credential } = result.registrationInfo;
  let passkey: Passkey;
  try {
    passkey = await em.transactional(async (tx) => {
      const created = tx.create(Passkey, {
        userId: props.userId,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey),
        counter: credential.counter,
        transports: (credential.transports ?? []).slice(0, 10),
        name: props.name,
        lastUsedAt: null,
      });
      audit(tx, {
        action: 'mfa.passkey_added',
        actorId: props.userId,
        tenantId: props.tenantId,
        targetType: 'passkey',
        targetId: created.id,
        ip: props.ip,
        data: { name: props.name },
      });
      return created;
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw taken();
    throw err;
  }
  await endOtherSessions(services, em, props.userId, props.keepSessionId, 'mfa_changed');
  return passkey;
}
