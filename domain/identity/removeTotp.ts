import type { Em } from '../../lib/db';
import type { Services } from '../services';
import { audit } from '../platform/audit';
import { endOtherSessions } from './endSession';
import { checkFactorCode } from './secondFactor';
import { deleteTotpFactor } from './store/mfa';

/**
 * Removes the account's TOTP factor and its recovery codes. Needs a factor check in the same request: a current
 * code or an unused recovery code (401 `mfa_code_invalid`, throttled per account), so a stolen access token alone
 * cannot turn the factor off. Every other session ends. Audited.
 */
export async function removeTotp(
  services: Services,
  em: Em,
  props: { userId: string; tenantId: string; code: string; sessionId: string; ip?: string | null },
): Promise<void> {
  await em.transactional(async (tx) => {
    const kind = await checkFactorCode(services, tx, props.userId, props.code, { confirmed: true, recovery: true });
    await deleteTotpFactor(tx, props.userId);
    audit(tx, {
      action: 'mfa.totp_removed',
      actorId: props.userId,
      tenantId: props.tenantId,
      targetType: 'user',
      targetId: props.userId,
      ip: props.ip,
      data: { checkedWith: kind },
    });
  });
  await endOtherSessions(services, em, props.userId, props.sessionId, 'mfa_changed');
}
