import { AppPassword, type AppPasswordScope } from '../../entities/identity/appPassword';
import { conflict } from '../../lib/errors';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { APP_PASSWORDS_PER_MEMBER, generateAppPassword, normalizeScopes } from './appPasswordRules';
import { countActiveAppPasswords } from './store/appPasswords';

export interface CreateAppPasswordProps {
  /** What it is for, e.g. "Phone calendar". */
  name: string;
  scopes: AppPasswordScope[];
  ip?: string | null;
}

export interface CreatedAppPassword {
  appPassword: AppPassword;
  /** The secret itself: returned this once, never stored (only its SHA-256 is). */
  password: string;
}

/**
 * Issues an app password of the acting member for the organisation of their token, for the DAV surfaces named
 * by `scopes`. A member holds at most APP_PASSWORDS_PER_MEMBER active ones per organisation (409
 * `app_password_limit`). Audited as `app_password.created` (name and scopes, never the secret).
 */
export async function createAppPassword(
  ctx: TenantContext,
  props: CreateAppPasswordProps,
): Promise<CreatedAppPassword> {
  const userId = ctx.userId!;
  const { password, hash } = generateAppPassword();
  const scopes = normalizeScopes(props.scopes);
  const appPassword = await ctx.em.transactional(async (em) => {
    if ((await countActiveAppPasswords(em, userId)) >= APP_PASSWORDS_PER_MEMBER)
      throw conflict(
        'app_password_limit',
        `At most ${APP_PASSWORDS_PER_MEMBER} app passwords per organisation; revoke one you no longer use`,
      );
    const row = em.create(AppPassword, {
      tenantId: ctx.tenantId,
      userId,
      name: props.name.trim(),
      scopes,
      secretHash: hash,
      lastUsedAt: null,
      revokedAt: null,
    });
    audit(em, {
      action: 'app_password.created',
      actorId: userId,
      tenantId: ctx.tenantId,
      targetType: 'app_password',
      targetId: row.id,
      ip: props.ip,
      data: { name: row.name, scopes },
    });
    return row;
  });
  return { appPassword, password };
}
