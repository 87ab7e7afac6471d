import { unauthorized } from '../../lib/errors';
import { verifyPassword } from '../../lib/passwords';
import type { User } from '../../entities/identity/user';
import type { Services } from '../services';
import { admitPasswordAttempt } from './admitPasswordAttempt';
import { audit } from '../platform/audit';
import { normalizeEmail } from './createUser';
import { homeOrganization } from './homeOrganization';
import { refuseDisabledAccount } from './refuseDisabledAccount';
import { refuseWhereSsoRequired } from './sso/refuseWhereSsoRequired';
import { openChallenge, type MfaChallenge } from './secondFactor';
import { startSession, type DeviceInfo, type TokenPair } from './sessions';
import { hasSecondFactor } from './store/mfa';
import { requiresMfa } from './store/memberships';
import { userWithPasswordByEmail } from './store/users';

export interface LoginProps {
  email: string;
  password: string;
  /** Client address and user agent, kept on the session and in the audit log. */
  device?: DeviceInfo;
  /** The client address failures are counted by (admitPasswordAttempt), e.g. an IPv6 one by its /56 network. */
  address: string;
}

/**
 * Signs in with e-mail and password and opens a session in the user's home organisation. An unknown
 * address and a wrong password give the same 401 `invalid_credentials` after the same work (a password
 * verification runs either way), and both count as failures (429 `rate_limited` past the limits of
 * admitPasswordAttempt). A disabled account is told so only once the password is right.
 * Unconfirmed addresses may sign in (GET /auth/me tells emailConfirmed).
 * An account with a second factor (TOTP or a passkey) gets a challenge instead of tokens (`mfa: required`, POST
 * /auth/mfa/verify);
 * one without, whose organisation requires one, a challenge that only enrols (`mfa: enrolment_required`).
 * An address whose organisation makes single sign-on mandatory is 403 `sso_required` (platform administrators exempt).
 */
export async function login(services: Services, props: LoginProps): Promise<TokenPair | MfaChallenge> {
  const em = services.orm.em.fork();
  const email = normalizeEmail(props.email);
  const ip = props.device?.ip;
  const attempt = await admitPasswordAttempt(services, { account: email, address: props.address });
  let user: User | null, valid: boolean;
  try {
    user = await userWithPasswordByEmail(em, email);
    valid = await verifyPassword(user?.passwordHash.unwrap(), props.password);
  } catch (err) {
    // Not a guess that failed (PostgreSQL down, ...): not counted; what the client sees is the original error.
    await attempt.abandoned().catch(() => undefined);
    throw err;
  }
  if (!user || !valid) {
    audit(em, {
      action: 'auth.login_failed',
      actorId: user?.id,
      targetType: 'user',
      targetId: user?.id,
      ip,
      data: { email },
    });
    await em.flush();
    throw unauthorized('invalid_credentials', 'The e-mail address or the password is wrong');
  }
  await attempt.succeeded();
  await refuseWhereSsoRequired(em, email, user.isPlatformAdmin);
  await refuseDisabledAccount(em, user, ip);
  const tenantId = await homeOrganization(em, user);
  const purpose = (await hasSecondFactor(em, user.id)) ? 'verify' : (await requiresMfa(em, tenantId)) ? 'enrol' : null;
  if (purpose) {
    audit(em, {
      action: 'auth.login_challenged',
      actorId: user.id,
      tenantId,
      targetType: 'user',
      targetId: user.id,
      ip,
      data: { purpose },
    });
    await em.flush();
    return openChallenge(services, {
      userId: user.id,
      tenantId,
      purpose,
      ip: ip ?? '',
      userAgent: props.device?.userAgent ?? '',
    });
  }
  audit(em, { action: 'auth.login', actorId: user.id, tenantId, targetType: 'user', targetId: user.id, ip });
  return startSession(services, em, user, tenantId, props.device);
}
