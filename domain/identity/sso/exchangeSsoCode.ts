import { User } from '../../../entities/identity/user';
import { badRequest } from '../../../lib/errors';
import { hashToken } from '../../../lib/tokens';
import type { Services } from '../../services';
import { audit } from '../../platform/audit';
import { refuseDisabledAccount } from '../refuseDisabledAccount';
import { openChallenge, type MfaChallenge } from '../secondFactor';
import { startSession, type DeviceInfo, type TokenPair } from '../sessions';
import { takeSsoGrant } from '../store/sso';

/**
 * POST /auth/sso/exchange: the one-time code of a single sign-on callback becomes the usual token pair (a session in
 * the provider's organisation, as /auth/login opens one), or, when the organisation requires a second factor the
 * provider did not assert, the same challenge /auth/login answers. A code is used once; unknown, expired or used:
 * 400 `sso_code_invalid`. Audited `auth.login` (or `auth.login_challenged`) with `via: sso`.
 */
export async function exchangeSsoCode(
  services: Services,
  props: { code: string; device?: DeviceInfo },
): Promise<TokenPair | MfaChallenge> {
  const grant = await takeSsoGrant(services.redis, services.key, hashToken(props.code));
  if (!grant) throw badRequest('sso_code_invalid', 'This sign-in code is unknown, expired or already used');
  const em = services.orm.em.fork();
  const user = await em.findOneOrFail(User, { id: grant.userId });
  const ip = props.device?.ip;
  await refuseDisabledAccount(em, user, ip);
  const entry = { actorId: user.id, tenantId: grant.tenantId, targetType: 'user', targetId: user.id, ip };
  if (grant.factor !== 'none') {
    audit(em, { ...entry, action: 'auth.login_challenged', data: { purpose: grant.factor, via: 'sso' } });
    await em.flush();
    return openChallenge(services, {
      userId: user.id,
      tenantId: grant.tenantId,
      purpose: grant.factor,
      ip: ip ?? '',
      userAgent: props.device?.userAgent ?? '',
    });
  }
  audit(em, { ...entry, action: 'auth.login', data: { via: 'sso', providerId: grant.providerId } });
  return startSession(services, em, user, grant.tenantId, props.device);
}
