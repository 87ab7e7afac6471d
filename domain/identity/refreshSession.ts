import type { Em } from '../../lib/db';
import { unauthorized } from '../../lib/errors';
import type { Services } from '../services';
import { audit } from '../platform/audit';
import { homeOrganization } from './homeOrganization';
import { issuePair, type DeviceInfo, type TokenPair } from './sessions';
import { isMemberOf } from './store/memberships';
import { lockRefreshToken, rememberedExchange, rememberExchange } from './store/sessions';

/**
 * A refresh token presented again this soon after it was exchanged answers the pair that exchange produced,
 * as the major identity providers do (Okta's grace period, Auth0's reuse interval): a client whose parallel
 * requests all refresh at once keeps its session. Later, a second use is reuse.
 */
export const REFRESH_REUSE_GRACE_SECONDS = 10;

/**
 * Exchanges a refresh token for a new pair (rotation). Presented again within REFRESH_REUSE_GRACE_SECONDS,
 * it answers the same pair again. Any other second use means it leaked: the whole session (the token
 * family) is revoked, and its access tokens with it. Runs in a transaction with the token row locked, so
 * concurrent uses are serialised: one rotates, the others find its pair (remembered before the commit).
 */
export async function refreshSession(
  services: Services,
  em: Em,
  refreshToken: string,
  device: DeviceInfo = {},
): Promise<TokenPair> {
  const result = await em.transactional(async (tx) => {
    const token = await lockRefreshToken(tx, refreshToken);
    if (!token) return { error: 'refresh_token_invalid' as const };
    const session = token.session;
    if (session.revokedAt || session.expiresAt < new Date() || token.expiresAt < new Date())
      return { error: 'refresh_token_invalid' as const };
    if (session.user.disabledAt) return { error: 'account_disabled' as const };
    const withinGrace = token.usedAt && Date.now() - token.usedAt.getTime() <= REFRESH_REUSE_GRACE_SECONDS * 1000;
    const again = withinGrace ? await rememberedExchange<TokenPair>(services, refreshToken) : null;
    if (again) return { pair: again };
    if (token.usedAt) {
      session.revokedAt = new Date();
      session.revokedReason = 'refresh_reuse';
      audit(tx, {
        action: 'auth.refresh_reuse',
        actorId: session.user.id,
        tenantId: session.tenantId,
        targetType: 'session',
        targetId: session.id,
        ip: device.ip,
      });
      return { error: 'refresh_token_reused' as const, sessionId: session.id, pair: undefined };
    }
    token.usedAt = new Date();
    session.lastUsedAt = new Date();
    if (device.ip) session.ip = device.ip;
    // The token's own organisation (another tab may have switched the session elsewhere); removed from it
    // since, the pair falls back to one the user still belongs to.
    let tenantId = token.tenantId ?? session.tenantId;
    if (!(await isMemberOf(tx, tenantId, session.user))) tenantId = await homeOrganization(tx, session.user);
    session.tenantId = tenantId;
    const pair = issuePair(services, tx, session, tenantId);
    await rememberExchange(services, refreshToken, pair, REFRESH_REUSE_GRACE_SECONDS);
    return { pair };
  });
  if (result.pair) return result.pair;
  if (result.error === 'refresh_token_reused') {
    await services.revocations.revokeSession(result.sessionId);
    throw unauthorized('refresh_token_reused', 'This refresh token was already used; the session has been revoked');
  }
  if (result.error === 'account_disabled') throw unauthorized('account_disabled', 'This account is disabled');
  throw unauthorized('refresh_token_invalid', 'The refresh token is invalid or expired');
}
