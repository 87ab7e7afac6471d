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
import { userRoutes } from './users';

/** Identity: /auth (app passwords, second factor and passkeys included), /auth/internal, /users, /orgs, /rbac, /admin. */
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
}
