import { LockMode } from '@mikro-orm/core';
import type { Em } from '../../lib/db';
import { unauthorized } from '../../lib/errors';
import type { RevocationStore } from '../../lib/revocation';
import { seal, unseal } from '../../lib/seal';
import { hashToken, newOpaqueToken } from '../../lib/tokens';
import { Membership } from '../../entities/identity/organization';
import { RefreshToken, UserSession } from '../../entities/identity/session';
import type { User } from '../../entities/identity/user';
import type { Services } from '../services';
import { audit } from '../platform/audit';
import { homeOrganization } from './homeOrganization';

/** The answer of login, refresh and switch. expiresIn is in seconds (lifetime of the access token). */
export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  tokenType: 'Bearer';
}

export interface DeviceInfo {
  ip?: string | null;
  userAgent?: string | null;
}

function refreshExpiry(services: Services): Date {
  return new Date(Date.now() + services.config.REFRESH_TOKEN_TTL_DAYS * 86_400_000);
}

/** A pair of the session for one organisation: the refresh token remembers it, so its rotations stay there. */
function issue(services: Services, em: Em, session: UserSession, tenantId: string): TokenPair {
  const refreshToken = newOpaqueToken();
  em.create(RefreshToken, { session, tenantId, tokenHash: hashToken(refreshToken), expiresAt: session.expiresAt });
  const access = services.tokens.signAccess({ userId: session.user.id, tenantId, sid: session.id });
  return { accessToken: access.token, refreshToken, expiresIn: access.expiresIn, tokenType: 'Bearer' };
}

/** Opens a session for a user in an organisation and issues its first token pair. Flushes. */
export async function startSession(services: Services, em: Em, user: User, tenantId: string, device: DeviceInfo = {}): Promise<TokenPair> {
  const session = em.create(UserSession, {
    user,
    tenantId,
    ip: device.ip ?? null,
    userAgent: device.userAgent?.slice(0, 500) ?? null,
    expiresAt: refreshExpiry(services),
  });
  const pair = issue(services, em, session, tenantId);
  user.lastLoginAt = new Date();
  await em.flush();
  return pair;
}

/**
 * A refresh token presented again this soon after it was exchanged answers the pair that exchange produced,
 * as the major identity providers do (Okta's grace period, Auth0's reuse interval): a client whose parallel
 * requests all refresh at once keeps its session. Later, a second use is reuse.
 */
export const REFRESH_REUSE_GRACE_SECONDS = 10;

/**
 * The pair an exchange produced, kept for the grace period in Redis, sealed under the presented refresh
 * token itself: only whoever presents that token again can read it.
 */
const graceKey = (services: Services, refreshToken: string) => services.key('rt-grace', hashToken(refreshToken));
const GRACE_PURPOSE = 'refresh-grace';

async function rememberPair(services: Services, refreshToken: string, pair: TokenPair): Promise<void> {
  await services.redis.set(graceKey(services, refreshToken), seal(refreshToken, GRACE_PURPOSE, JSON.stringify(pair)), 'EX', REFRESH_REUSE_GRACE_SECONDS);
}

async function rememberedPair(services: Services, refreshToken: string): Promise<TokenPair | null> {
  const sealed = await services.redis.get(graceKey(services, refreshToken));
  const json = sealed && unseal(refreshToken, GRACE_PURPOSE, sealed);
  return json ? (JSON.parse(json) as TokenPair) : null;
}

/**
 * Exchanges a refresh token for a new pair (rotation). Presented again within REFRESH_REUSE_GRACE_SECONDS,
 * it answers the same pair again. Any other second use means it leaked: the whole session (the token
 * family) is revoked, and its access tokens with it. Runs in a transaction with the token row locked, so
 * concurrent uses are serialised: one rotates, the others find its pair (remembered before the commit).
 */
export async function refreshSession(services: Services, em: Em, refreshToken: string, device: DeviceInfo = {}): Promise<TokenPair> {
  const result = await em.transactional(async (tx) => {
    const token = await tx.findOne(RefreshToken, { tokenHash: hashToken(refreshToken) }, { populate: ['session', 'session.user'], lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!token) return { error: 'refresh_token_invalid' as const };
    const session = token.session;
    if (session.revokedAt || session.expiresAt < new Date() || token.expiresAt < new Date()) return { error: 'refresh_token_invalid' as const };
    if (session.user.disabledAt) return { error: 'account_disabled' as const };
    const withinGrace = token.usedAt && Date.now() - token.usedAt.getTime() <= REFRESH_REUSE_GRACE_SECONDS * 1000;
    const again = withinGrace ? await rememberedPair(services, refreshToken) : null;
    if (again) return { pair: again };
    if (token.usedAt) {
      session.revokedAt = new Date();
      session.revokedReason = 'refresh_reuse';
      audit(tx, { action: 'auth.refresh_reuse', actorId: session.user.id, tenantId: session.tenantId, targetType: 'session', targetId: session.id, ip: device.ip });
      return { error: 'refresh_token_reused' as const, sessionId: session.id, pair: undefined };
    }
    token.usedAt = new Date();
    session.lastUsedAt = new Date();
    if (device.ip) session.ip = device.ip;
    // The token's own organisation (another tab may have switched the session elsewhere); removed from it
    // since, the pair falls back to one the user still belongs to.
    let tenantId = token.tenantId ?? session.tenantId;
    if (!(await tx.count(Membership, { tenantId, user: session.user }, { filters: { tenant: false } }))) {
      tenantId = await homeOrganization(tx, session.user);
    }
    session.tenantId = tenantId;
    const pair = issue(services, tx, session, tenantId);
    await rememberPair(services, refreshToken, pair);
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

/**
 * Issues a pair of a session for another organisation (switch). The session's other refresh tokens are left
 * as they are: the device's other tabs stay signed in where they were, each token rotates on its own, and
 * presenting any used one again still ends the whole session (refreshSession).
 */
export async function issueForOrganization(services: Services, em: Em, sessionId: string, tenantId: string, device: DeviceInfo = {}): Promise<TokenPair> {
  return em.transactional(async (tx) => {
    const session = await tx.findOne(UserSession, { id: sessionId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!session || session.revokedAt || session.expiresAt < new Date()) throw unauthorized('token_revoked', 'This session has ended');
    audit(tx, { action: 'session.switched', actorId: session.user.id, tenantId, targetType: 'session', targetId: session.id, ip: device.ip, data: { from: session.tenantId } });
    session.tenantId = tenantId;
    session.lastUsedAt = new Date();
    return issue(services, tx, session, tenantId);
  });
}

/** Ends a session: no refresh any more, and its access tokens are revoked at once on every dyno. */
export async function endSession(services: Services, em: Em, sessionId: string, reason: string): Promise<void> {
  await em.nativeUpdate(UserSession, { id: sessionId, revokedAt: null }, { revokedAt: new Date(), revokedReason: reason });
  await services.revocations.revokeSession(sessionId);
}

/** Ends every session of a user but one (password change: the device that changed it stays signed in). */
export async function endOtherSessions(services: Services, em: Em, userId: string, keepSessionId: string, reason: string): Promise<void> {
  const others = await em.find(UserSession, { user: userId, revokedAt: null, id: { $ne: keepSessionId } }, { fields: ['id'] });
  if (!others.length) return;
  await em.nativeUpdate(UserSession, { id: { $in: others.map((s) => s.id) }, revokedAt: null }, { revokedAt: new Date(), revokedReason: reason });
  await Promise.all(others.map((s) => services.revocations.revokeSession(s.id)));
}

/** Ends every session of a user (password reset, account disabled, log out everywhere). */
export async function endAllSessions(services: { revocations: Pick<RevocationStore, 'revokeUser'> }, em: Em, userId: string, reason: string): Promise<void> {
  await em.nativeUpdate(UserSession, { user: userId, revokedAt: null }, { revokedAt: new Date(), revokedReason: reason });
  await services.revocations.revokeUser(userId);
}
