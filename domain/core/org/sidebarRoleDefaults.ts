import { SidebarRoleDefault } from '../../../entities/core/sidebar';
import { Role } from '../../../entities/identity/organization';
import { newId } from '../../../entities/base';
import { notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { audit } from '../../platform/audit';
import { checkLayout, layoutOf, type SidebarLayout } from './sidebarLayout';
import { deleteRoleDefaultRow, roleDefaultsOldestFirst, rolesById } from './store';

export interface RoleDefault {
  role: Role;
  layout: SidebarLayout;
  updatedAt: Date;
}

/** Every role of the organisation that has a default arrangement. */
export async function listRoleDefaults(ctx: TenantContext): Promise<RoleDefault[]> {
  const rows = await roleDefaultsOldestFirst(ctx.em);
  const roles = await rolesById(
    ctx.em,
    rows.map((r) => r.roleId),
  );
  return rows
    .filter((r) => roles.has(r.roleId))
    .map((r) => ({ role: roles.get(r.roleId)!, layout: layoutOf(r)!, updatedAt: r.updatedAt }));
}

async function roleOf(ctx: TenantContext, roleId: string): Promise<Role> {
  const role = await ctx.em.findOne(Role, { id: roleId });
  if (!role) throw notFound('Role');
  return role;
}

/** Sets the arrangement members of a role see until they make their own (a role of another organisation: 404). */
export async function setRoleDefault(ctx: TenantContext, roleId: string, layout: SidebarLayout): Promise<RoleDefault> {
  const role = await roleOf(ctx, roleId);
  const l = checkLayout(layout);
  const now = new Date();
  const row = await ctx.em.upsert(
    SidebarRoleDefault,
    {
      id: newId(),
      tenantId: ctx.tenantId,
      createdAt: now,
      roleId: role.id,
      ...l,
      updatedBy: ctx.userId,
      updatedAt: now,
    },
    {
      onConflictFields: ['tenantId', 'roleId'],
      onConflictAction: 'merge',
      onConflictMergeFields: ['order', 'hidden', 'pinned', 'updatedBy', 'updatedAt'],
    },
  );
  audit(ctx.em, {
    action: 'core.sidebar.role_default_set',
    actorId: ctx.userId,
    tenantId: ctx.tenantId,
    targetType: 'role',
    targetId: role.id,
    data: { ...l },
  });
  await ctx.em.flush();
  return { role, layout: l, updatedAt: row.updatedAt };
}

/** Removes a role's default arrangement (404 when the role is unknown or has none). */
export async function deleteRoleDefault(ctx: TenantContext, roleId: string): Promise<void> {
  const role = await roleOf(ctx, roleId);
  const gone = await deleteRoleDefaultRow(ctx.em, role.id);
  if (!gone) throw notFound('Sidebar default');
  audit(ctx.em, {
    action: 'core.sidebar.role_default_removed',
    actorId: ctx.userId,
    tenantId: ctx.tenantId,
    targetType: 'role',
    targetId: role.id,
    data: {},
  });
  await ctx.em.flush();
}
