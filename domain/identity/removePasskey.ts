import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { Em } from '../../lib/db';
import { notFound } from '../../lib/errors';
import type { Services } from '../services';
import { audit } from '../platform/audit';
import { endOtherSessions } from './endSession';
import { assertionOptions, checkPasskeyAssertion } from './passkeyFactor';
import { checkFactorCode } from './secondFactor';
import { deletePasskey, passkeyOf } from './store/passkeys';

/** The factor check a removal carries: a TOTP or recovery code, or a passkey assertion for this session. */
export type FactorProof = { code: string } | { passkey: AuthenticationResponseJSON };

/**
 * Removes a passkey of the account (404 for an unknown one or another account's). Needs a factor check in the
 * same request, as removing the TOTP factor does: a current TOTP code, an unused recovery code, or an assertion
 * of one of the account's passkeys answering POST /auth/mfa/passkeys/check-options of this session (throttled
 * per account, 401 otherwise), so a stolen access token alone cannot remove it. Every other session ends.
 * Audited (`mfa.passkey_removed`).
 */
export async function removePasskey(
  services: Services,
  em: Em,
  props: { userId: string; tenantId: string; id: string; proof: FactorProof; sessionId: string; ip?: string | null },
): Promise<void> {
  if (!(await passkeyOf(em, props.userId, props.id))) throw notFound('Passkey');
  await em.transactional(async (tx) => {
    const checkedWith =
      'code' in props.proof
        ? await checkFactorCode(services, tx, props.userId, props.proof.code, { confirmed: true, recovery: true })
        : await checkPasskeyAssertion(services, tx, {
            ceremony: { kind: 'check', id: props.sessionId },
            response: props.proof.passkey,
            userId: props.userId,
          }).then(() => 'passkey' as const);
    if (!(await deletePasskey(tx, props.userId, props.id))) throw notFound('Passkey');
    audit(tx, {
      action: 'mfa.passkey_removed',
      actorId: props.userId,
      tenantId: props.tenantId,
      targetType: 'passkey',
      targetId: props.id,
      ip: props.ip,
      data: { checkedWith },
    });
  });
  await endOtherSessions(services, em, props.userId, props.sessionId, 'mfa_changed');
}

/**
 * Options of a passkey assertion checking the factor within a session (before removing a passkey): for the
 * account's passkeys (400 `mfa_not_enrolled` without any), kept for this session, single use.
 */
export const passkeyCheckOptions = (services: Services, em: Em, props: { userId: string; sessionId: string }) =>
  assertionOptions(services, em, { kind: 'check', id: props.sessionId }, props.userId);
