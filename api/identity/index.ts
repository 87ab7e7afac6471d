import type { ModuleMount } from '../modules';
import { userRoutes } from './users';

/** Identity: /auth, /orgs, /users, /rbac, /admin. */
export function identityApi(mount: ModuleMount): void {
  userRoutes(mount);
}
