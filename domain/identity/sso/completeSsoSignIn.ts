import { Membership, Role } from '../../../entities/identity/organization';
import { SsoLink, type SsoProvider } from '../../../entities/identity/sso';
import { User } from '../../../entities/identity/user';
import { conflict, forbidden } from '../../../lib/errors';
import { hashToken, newOpaqueToken } from '../../../lib/tokens';
import { tenantContext } from '../../context';
import type { Services } from '../../services';
import { audit } from '../../platform/audit';
import { emitEvent } from '../../webhooks/emitEvent';
import { createUser, normalizeEmail } from '../createUser';
import { lockOrganization } from '../members';
import { refuseDisabledAccount } from '../refuseDisabledAccount';
import { seatLimit, seatLimitReached, seatsFull } from '../seats';
import { hasSecondFactor } from '../store/mfa';
import { countMembers, isMember, lockSeats, requiresMfa } from '../store/memberships';
import { saveSsoGrant, ssoDomainNamed, ssoLinkBySubject, ssoLinkOfUser } from '../store/sso';
import { assertsSecondFactor, emailDomain } from './ssoRules';

/** The claims of a validated ID token this service reads (openid-client checked iss, aud, nonce, expiry). */
export interface SsoClaims {
  iss: string;
  sub: string;
  email?: unknown;
  email_verified?: unknown;
  name?: unknown;
  amr?: unknown;
}

/**
 * After a callback whose ID token openid-client validated: signs in the account linked to the provider subject, or
 * provisions it just in time. A first sign-in needs an e-mail the provider says it verified (403
 * `sso_email_unverified`) on a domain the organisation verified (403 `sso_domain_unverified`): only then is the
 * account of that address linked (or created, its address confirmed). An account that is not a member joins with
 * the provider's default role, taking a seat (409 `seat_limit_reached`, under the seat lock as invitations and SCIM
 * do). Answers a one-time code (SSO_CODE_TTL_SECONDS, single use) for POST /auth/sso/exchange: no token travels in
 * a URL. An organisation requiring a second factor accepts the provider's (`amr`); otherwise the exchange asks ours.
 */
export async function completeSsoSignIn(
  services: Services,
  provider: SsoProvider,
  claims: SsoClaims,
  ip: string | null,
): Promise<string> {
  const tenantId = provider.tenantId;
  const ctx = tenantContext(services, tenantId, null);
  const { user, joined } = await ctx.em.transactional(async (tx) => {
    await lockOrganization(tx, tenantId);
    let link = await ssoLinkBySubject(tx, claims.iss, claims.sub);
    let user: User;
    let linked = false;
    if (link) user = await tx.findOneOrFail(User, { id: link.userId });
    else {
      if (typeof claims.email !== 'string' || claims.email_verified !== true)
        throw forbidden('sso_email_unverified', 'The identity provider did not assert a verified e-mail address');
      const email = normalizeEmail(claims.email);
      const domain = emailDomain(email);
      const claim = domain ? await ssoDomainNamed(tx, domain) : null;
      if (!claim?.verifiedAt)
        throw forbidden(
          'sso_domain_unverified',
          'The e-mail domain of this account is not a verified domain of the organisation',
        );
      const existing = await tx.findOne(User, { email });
      user =
        existing ??
        (
          await createUser(tx, {
            email,
            password: null,
            displayName: (typeof claims.name === 'string' && claims.name.trim()) || email.split('@')[0],
            emailConfirmed: true,
            ip,
          })
        ).user;
      if (existing && (await ssoLinkOfUser(tx, existing.id)))
        throw conflict('sso_account_linked', 'This account is linked to another identity of the provider');
      link = tx.create(SsoLink, {
        tenantId,
        userId: user.id,
        issuer: claims.iss,
        subject: claims.sub,
        lastSignInAt: null,
      });
      linked = true;
    }
    link.lastSignInAt = new Date();
    let joined = false;
    if (!(await isMember(tx, user.id))) {
      const seats = seatLimit(await services.entitlements.get(tenantId));
      if (seats !== null) {
        await lockSeats(tx, tenantId);
        if (seatsFull(seats, await countMembers(tx, tenantId))) throw seatLimitReached(seats);
      }
      const role = await tx.findOneOrFail(Role, { key: provider.defaultRoleKey });
      tx.create(Membership, { tenantId, user: user.id }).roles.add(role);
      emitEvent(tx, tenantId, 'member.joined', { userId: user.id, roles: [role.key] });
      joined = true;
    }
    if (linked || joined)
      audit(tx, {
        action: 'sso.member_provisioned',
        tenantId,
        targetType: 'user',
        targetId: user.id,
        ip,
        data: { via: 'sso', providerId: provider.id, linked, joined, role: joined ? provider.defaultRoleKey : null },
      });
    return { user, joined, linked };
  });
  if (joined) await services.permissions.invalidate(tenantId, user.id);
  await refuseDisabledAccount(ctx.em, user, ip);
  const factor =
    !(await requiresMfa(ctx.em, tenantId)) || assertsSecondFactor(claims.amr)
      ? 'none'
      : (await hasSecondFactor(ctx.em, user.id))
        ? 'verify'
        : 'enrol';
  const code = newOpaqueToken();
  await saveSsoGrant(
    services.redis,
    services.key,
    hashToken(code),
    { userId: user.id, tenantId, factor, providerId: provider.id },
    services.config.SSO_CODE_TTL_SECONDS * 1000,
  );
  return code;
}
