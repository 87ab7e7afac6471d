import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { conflict } from '../../lib/errors';
import { Role } from '../../entities/identity/organization';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { loadGrantor, requireHeld } from './grants';
import type { Permission } from './permissionCatalogue';
import { roleKeyTaken } from './store/roles';

export interface CreateRoleProps {
  /** Stable key, unique in the organisation (409 `role_key_taken`). */
  key: string;
  name: string;
  description?: string;
  /** Keys of the permission catalogue. */
  permissions: Permission[];
  ip?: string | null;
}

/**
 * Adds a custom role to the context's organisation. It may hold only permissions the caller holds (403
 * `permission_escalation`, owners exempt; domain/identity/grants.ts), checked in the transaction that creates
 * it. Nobody holds it yet, so no cached permission changes.
 */
export async function createRole(ctx: TenantContext, props: CreateRoleProps): Promise<Role> {
  const taken = () =>
    conflict('role_key_taken', `A role with the key ${props.key} already exists in this organisation`);
  const permissions = [...new Set(props.permissions)];
  try {
    return await ctx.em.transactional(async (tx) => {
      if (await roleKeyTaken(tx, props.key)) throw taken();
      requireHeld(await loadGrantor(tx, ctx.userId!), permissions, `Creating the role ${props.key}`);
      const role = tx.create(Role, {
        tenantId: ctx.tenantId,
        key: props.key,
        name: props.name.trim(),
        description: props.description?.trim() ?? '',
        permissions,
        system: false,
      });
      audit(tx, {
        action: 'rbac.role_created',
        actorId: ctx.userId,
        tenantId: ctx.tenantId,
        targetType: 'role',
        targetId: role.id,
        ip: props.ip,
        data: { key: role.key, permissions: role.permissions },
      });
      return role;
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw taken();
    throw err;
  }
}
