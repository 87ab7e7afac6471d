import { timingSafeEqual, createHash } from 'node:crypto';
import type { Request } from 'express';
import type { ApiKeyPrincipal } from '../../domain/apikeys/resolveApiKey';
import type { Services } from '../../domain/services';
import type { ApiKeyModule, ApiKeyScope } from '../../entities/apikeys/apiKey';
import type { Permission } from '../../domain/identity/permissionCatalogue';
import { User } from '../../entities/identity/user';
import { forbidden, unauthorized } from '../../lib/errors';
import { lean } from '../../lib/lean';

/** Modules an organisation can be entitled to (billing's catalogue uses the same keys). */
export const moduleKeys = ['vr', 'knowledge', 'core', 'cloud', 'rh'] as const;
export type ModuleKey = (typeof moduleKeys)[number];

const authOf = (req: Request) => {
  if (!req.auth) throw unauthorized('token_missing', 'An access token is required');
  return req.auth;
};

/**
 * A check a route runs before its handler; it throws an AppError to refuse. Routes run their guards in one
 * step rather than as one Express middleware each (every middleware hop costs on the hottest routes).
 */
export type Guard = (req: Request) => Promise<void> | void;

/**
 * 403 `module_not_entitled` unless the caller's organisation (the token's, or the API key's) is entitled to
 * the module (cached, see EntitlementCache).
 */
export function requireModule(services: Services, module: ModuleKey): Guard {
  return async (req) => {
    const entitlements = await services.entitlements.get(req.apiKey?.tenantId ?? authOf(req).tenantId);
    if (entitlements.suspended) throw forbidden('organization_suspended', 'This organisation is suspended');
    if (!entitlements.modules.includes(module))
      throw forbidden(
        'module_not_entitled',
        `The subscription of this organisation does not include the ${module} module`,
      );
  };
}

/** 403 `permission_denied` unless one of the caller's roles in the active organisation grants the permission. */
export function requirePermission(services: Services, permission: Permission): Guard {
  return async (req) => {
    const { tenantId, userId } = authOf(req);
    const permissions = await services.permissions.of(tenantId, userId);
    if (!permissions.has(permission))
      throw forbidden('permission_denied', `This action needs the permission ${permission}`);
  };
}

// A lean statement (docs/database-path.md): every admin route asks it.
const userById = lean(User, { where: 'id = $1' });

/** 403 `platform_admin_required` unless the caller is a platform administrator. */
export function requirePlatformAdmin(services: Services): Guard {
  return async (req) => {
    const { userId, tenantId } = authOf(req);
    const user = await userById.one({ services, tenantId }, userId);
    if (!user?.isPlatformAdmin || user.disabledAt)
      throw forbidden('platform_admin_required', 'Only platform administrators may do this');
  };
}

/** Constant-time comparison of two secrets of any length (both are hashed first). */
export function secretsMatch(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

/**
 * Machine-to-machine routes: X-Internal-Secret must equal INTERNAL_SECRET. Fail-closed: with no secret
 * configured every call is refused.
 */
export function requireInternalSecret(services: Services): Guard {
  return (req) => {
    const expected = services.config.INTERNAL_SECRET;
    if (!expected)
      throw forbidden('internal_routes_disabled', 'Internal routes are disabled: INTERNAL_SECRET is not configured');
    const given = req.get('x-internal-secret');
    if (!given || !secretsMatch(given, expected))
      throw forbidden('internal_secret_invalid', 'X-Internal-Secret is missing or wrong');
  };
}

declare module 'express-serve-static-core' {
  interface Request {
    apiKey?: ApiKeyPrincipal;
  }
}

/** The scope an API-key route needs unless it declares one: reads need `read`, everything else `write`. */
export const neededScope = (method: string, declared?: ApiKeyScope): ApiKeyScope =>
  declared ?? (method === 'get' ? 'read' : 'write');

/**
 * Integration routes: X-Server-API-Key must be a live key of `module`'s surface (401 `api_key_invalid`)
 * holding `scope` (403 `api_key_scope_missing`). Sets req.apiKey; requireModule then checks the key's
 * organisation is still entitled to the module.
 */
export function requireApiKey(services: Services, module: ApiKeyModule, scope: ApiKeyScope): Guard {
  return async (req) => {
    const key = req.get('x-server-api-key');
    const principal = key ? await services.apiKeys.resolve(key) : null;
    if (!principal) throw unauthorized('api_key_invalid', 'X-Server-API-Key is missing or invalid');
    if (principal.module !== module)
      throw unauthorized(
        'api_key_invalid',
        `This is a key of the ${principal.module} integration surface, not of ${module}`,
      );
    if (!principal.scopes.includes(scope))
      throw forbidden('api_key_scope_missing', `This action needs a key with the scope ${scope}`);
    req.apiKey = principal;
  };
}
