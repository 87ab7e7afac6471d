import type { Config } from '../../lib/config';
import type { Em, Orm } from '../../lib/db';
import { conflict, invalidField } from '../../lib/errors';
import { createLogger } from '../../lib/logger';
import { hashPassword, passwordProblem, verifyPassword } from '../../lib/passwords';
import { closeRedis, createRedis, isCluster, keyspace, whenReady } from '../../lib/redis';
import { RevocationStore } from '../../lib/revocation';
import { User } from '../../entities/identity/user';
import { audit } from '../platform/audit';
import { createUser, normalizeEmail } from './createUser';
import { endAllSessions } from './endSession';
import { userWithPasswordByEmail } from './store/users';

export interface AdminBootstrapDeps {
  em: Em;
  /** Ends the access tokens of an account taken over, on every dyno. */
  revocations: Pick<RevocationStore, 'revokeUser'>;
}

export interface AdminBootstrap {
  outcome: 'created' | 'promoted' | 'taken_over' | 'unchanged';
  /** What was done, for the operator. */
  message: string;
}

/**
 * Makes sure the account of this e-mail is a platform administrator whose password the operator set (used by
 * ADMIN_EMAIL at release and start, and by `npm run admin:create`). Platform rights are never granted to an
 * account someone else may hold:
 *   - no account: a confirmed one is created with this password;
 *   - an account whose address is not confirmed may have been registered by anyone (a squatter who knows the
 *     operator's address): it is taken over, its password set to this one, every session of it ended and its
 *     address marked confirmed;
 *   - a confirmed account is promoted only when this is its password (which proves it is the operator's);
 *     with another password it is refused (409 `admin_bootstrap_refused`), as is a disabled account;
 *   - an administrator with a confirmed address is left as it is, whatever password is given (its password
 *     may have changed since), so running it again does nothing.
 */
export async function ensurePlatformAdmin(
  deps: AdminBootstrapDeps,
  email: string,
  password: string,
): Promise<AdminBootstrap> {
  const { em } = deps;
  const address = normalizeEmail(email);
  const problem = passwordProblem(password, address);
  if (problem) throw invalidField('password', problem);
  const existing = await userWithPasswordByEmail(em, address);
  if (!existing) {
    const { user } = await createUser(em, {
      email: address,
      password,
      displayName: 'Platform administrator',
      emailConfirmed: true,
      isPlatformAdmin: true,
    });
    audit(em, { action: 'admin.granted', targetType: 'user', targetId: user.id, data: { via: 'bootstrap' } });
    await em.flush();
    return { outcome: 'created', message: `created platform administrator ${email}` };
  }
  if (existing.isPlatformAdmin && existing.emailConfirmedAt)
    return {
      outcome: 'unchanged',
      message: `${email} is already a platform administrator (its password is left as it is)`,
    };
  if (existing.disabledAt)
    throw refused(
      `${email} is a disabled account; a platform administrator can enable it (POST /admin/users/{id}/enable)`,
    );
  const own = await verifyPassword(existing.passwordHash.unwrap(), password);
  if (existing.emailConfirmedAt && !own) {
    throw refused(
      `${email} belongs to an account with a confirmed address and a different password, so it may be someone else's. Run it again with that account's password, or have a platform administrator grant the rights (POST /admin/users/{id}/platform-admin)`,
    );
  }
  if (own) {
    existing.emailConfirmedAt ??= new Date();
    existing.isPlatformAdmin = true;
    audit(em, { action: 'admin.granted', targetType: 'user', targetId: existing.id, data: { via: 'bootstrap' } });
    await em.flush();
    return { outcome: 'promoted', message: `${email} is now a platform administrator` };
  }
  // Unconfirmed and another password: whoever registered the address never proved it is theirs.
  const passwordHash = await hashPassword(password);
  await em.transactional(async (tx) => {
    const user = await tx.findOneOrFail(User, { id: existing.id });
    user.passwordHash.set(passwordHash);
    user.emailConfirmedAt = new Date();
    user.isPlatformAdmin = true;
    audit(tx, {
      action: 'admin.granted',
      targetType: 'user',
      targetId: user.id,
      data: { via: 'bootstrap', takenOver: true },
    });
  });
  await endAllSessions(deps, em, existing.id, 'admin_bootstrap');
  return {
    outcome: 'taken_over',
    message: `${email} had an account whose address was not confirmed (anyone may have registered it): taken over as platform administrator (password set, every session ended, address marked confirmed)`,
  };
}

const refused = (why: string) => conflict('admin_bootstrap_refused', `Platform administrator refused: ${why}`);

/**
 * ensurePlatformAdmin for the release phase and admin:create, which run without a dyno's services: the
 * revocation list gets a Redis connection of its own, opened only if an account is taken over.
 */
export async function bootstrapAdmin(
  config: Config,
  orm: Orm,
  email: string,
  password: string,
): Promise<AdminBootstrap> {
  let redis: ReturnType<typeof createRedis> | undefined;
  const revokeUser = async (userId: string) => {
    redis = createRedis(config);
    await whenReady(redis, 3000);
    const store = new RevocationStore({
      orm,
      redis,
      key: keyspace(config.REDIS_NAMESPACE, isCluster(config)),
      logger: createLogger(config),
      accessTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
    });
    await store.revokeUser(userId);
  };
  try {
    return await ensurePlatformAdmin({ em: orm.em.fork(), revocations: { revokeUser } }, email, password);
  } finally {
    if (redis) await closeRedis(redis);
  }
}
