import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { conflict } from '../../lib/errors';
import { Role } from '../../entities/identity/organization';
import type { TenantContext } from '../context';
import { audit } from './audit';
import type { Permission } from './permissionCatalogue';

export interface CreateRoleProps {
  /** Stable key, unique in the organisation (409 `role_key_taken`). */
  key: string;
  name: string;
  description?: string;
  /** Keys of the permission catalogue. */
  permissions: Permission[];
  ip?: string | null;
}

/** Adds a custom role to the context's organisation. Nobody holds it yet, so no cached permission changes. */
export async function createRole(ctx: TenantContext, props: CreateRoleProps): Promise<Role> {
  const { em } = ctx;
  const taken = () => conflict('role_key_taken', `A role with the key ${props.key} already exists in this organisation`);
  if (await em.count(Role, { key: props.key })) throw taken();
  const role = em.create(Role, { tenantId: ctx.tenantId, key: props.key, name: props.name.trim(), description: props.description?.trim() ?? '', permissions: [...new Set(props.permissions)], system: false });
  audit(em, { action: 'rbac.role_created', actorId: ctx.userId, tenantId: ctx.tenantId, targetType: 'role', targetId: role.id, ip: props.ip, data: { key: role.key, permissions: role.permissions } });
  try {
    await em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw taken();
    throw err;
  }
  return role;
}
