import type { ModuleMount } from '../http/mount';
import { adminRoutes } from './admin';
import { appPasswordRoutes } from './appPasswords';
import { authRoutes } from './auth';
import { internalAuthRoutes } from './internal';
import { mfaRoutes } from './mfa';
import { orgAuditRoutes } from './orgAudit';
import { passkeyRoutes } from './passkeys';
import { organizationRoutes } from './orgs';
import { rbacRoutes } from './rbac';
import { scimRoutes } from './scim';
import { scimTokenRoutes } from './scimTokens';
import { ssoRoutes } from './sso';
import { ssoSamlRoutes } from './ssoSaml';
import { userRoutes } from './users';

/** Identity: /auth (app passwords, second factor and passkeys included), /auth/internal, /users, /orgs, /rbac, /admin, /scim/v2. */
export function identityApi(mount: ModuleMount): void {
  authRoutes(mount);
  appPasswordRoutes(mount);
  mfaRoutes(mount);
  passkeyRoutes(mount);
  internalAuthRoutes(mount);
  userRoutes(mount);
  organizationRoutes(mount);
  orgAuditRoutes(mount);
  rbacRoutes(mount);
  adminRoutes(mount);
  // SCIM routes before the token routes: the guards call operations in the document's order, and the token routes rotate and revoke the token.
  scimRoutes(mount);
  scimTokenRoutes(mount);
  ssoRoutes(mount);
  ssoSamlRoutes(mount);
}
