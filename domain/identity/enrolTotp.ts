import { TotpFactor } from '../../entities/identity/mfa';
import { User } from '../../entities/identity/user';
import { conflict } from '../../lib/errors';
import type { Em } from '../../lib/db';
import type { Services } from '../services';
import { audit } from '../platform/audit';
import { newTotpSecret, otpauthUri } from './totpRules';
import { totpFactorOf } from './store/mfa';

export interface TotpEnrolment {
  /** Base32, for apps that take the secret typed in. */
  secret: string;
  /** otpauth://totp/... for apps that scan it as a QR code. */
  otpauthUri: string;
}

/**
 * Starts (or starts again) the enrolment of a TOTP factor: a new secret the authenticator app takes; nothing is
 * asked at sign-in until a first code confirms it (confirmTotp). 409 `mfa_already_enrolled` when a confirmed
 * factor exists (remove it first). Audited.
 */
export async function enrolTotp(
  services: Services,
  em: Em,
  props: { userId: string; tenantId: string | null; ip?: string | null },
): Promise<TotpEnrolment> {
  return em.transactional(async (tx) => {
    const user = await tx.findOneOrFail(User, { id: props.userId });
    const existing = await totpFactorOf(tx, props.userId);
    if (existing?.confirmedAt) throw conflict('mfa_already_enrolled', 'A TOTP factor is enrolled; remove it first');
    const secret = newTotpSecret();
    if (existing) Object.assign(existing, { secret, lastStep: null, createdAt: new Date() });
    else tx.create(TotpFactor, { userId: props.userId, secret, confirmedAt: null, lastStep: null });
    audit(tx, {
      action: 'mfa.totp_enrolment_started',
      actorId: props.userId,
      tenantId: props.tenantId,
      targetType: 'user',
      targetId: props.userId,
      ip: props.ip,
    });
    return { secret, otpauthUri: otpauthUri(secret, user.email, services.config.MFA_ISSUER) };
  });
}
