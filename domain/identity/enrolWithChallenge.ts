import type { Services } from '../services';
import { confirmTotp } from './confirmTotp';
import { enrolTotp, type TotpEnrolment } from './enrolTotp';
import type { DeviceInfo, TokenPair } from './sessions';
import { admitChallenge, redeemChallenge } from './verifyMfaChallenge';

/**
 * The enrolment-only state of a member whose organisation requires a second factor and who has none: the
 * challenge of POST /auth/login (`enrolment_required`) starts a TOTP enrolment, and nothing else.
 */
export async function startEnrolmentWithChallenge(
  services: Services,
  props: { challenge: string; ip?: string | null },
): Promise<TotpEnrolment> {
  const record = await admitChallenge(services, props.challenge, 'enrol');
  return enrolTotp(services, services.orm.em.fork(), {
    userId: record.userId,
    tenantId: record.tenantId,
    ip: props.ip,
  });
}

/** Confirms that enrolment with a first code: the recovery codes, and the session the sign-in was for. */
export async function confirmEnrolmentWithChallenge(
  services: Services,
  props: { challenge: string; code: string; device?: DeviceInfo },
): Promise<{ recoveryCodes: string[]; tokens: TokenPair }> {
  const record = await admitChallenge(services, props.challenge, 'enrol');
  const { recoveryCodes } = await confirmTotp(services, services.orm.em.fork(), {
    userId: record.userId,
    tenantId: record.tenantId,
    code: props.code,
    keepSessionId: null,
    ip: props.device?.ip,
  });
  const tokens = await redeemChallenge(services, props.challenge, record, props.device, 'totp_enrolled');
  return { recoveryCodes, tokens };
}
