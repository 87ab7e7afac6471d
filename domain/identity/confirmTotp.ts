import type { Em } from '../../lib/db';
import type { Services } from '../services';
import { audit } from '../platform/audit';
import { endAllSessions, endOtherSessions } from './endSession';
import { checkFactorCode } from './secondFactor';
import { newRecoveryCodes } from './totpRules';
import { replaceRecoveryCodes, totpFactorOf } from './store/mfa';

/**
 * Confirms a pending TOTP enrolment with a first code from the app: from now on sign-in asks for a code. Answers
 * ten single-use recovery codes, shown this once (only their hashes are kept). Every other session of the account
 * ends (all of them when `keepSessionId` is null: an enrolment before any session). Audited.
 */
export async function confirmTotp(
  services: Services,
  em: Em,
  props: { userId: string; tenantId: string | null; code: string; keepSessionId: string | null; ip?: string | null },
): Promise<{ recoveryCodes: string[] }> {
  const { codes, hashes } = newRecoveryCodes();
  await em.transactional(async (tx) => {
    await checkFactorCode(services, tx, props.userId, props.code, { confirmed: false, recovery: false });
    const factor = await totpFactorOf(tx, props.userId);
    factor!.confirmedAt = new Date();
    await replaceRecoveryCodes(tx, props.userId, hashes);
    audit(tx, {
      action: 'mfa.totp_enabled',
      actorId: props.userId,
      tenantId: props.tenantId,
      targetType: 'user',
      targetId: props.userId,
      ip: props.ip,
    });
  });
  if (props.keepSessionId) await endOtherSessions(services, em, props.userId, props.keepSessionId, 'mfa_changed');
  else await endAllSessions(services, em, props.userId, 'mfa_changed');
  return { recoveryCodes: codes };
}
