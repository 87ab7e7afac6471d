import type { ModuleMount } from '../http/mount';
import { mapPage } from '../../lib/pagination';
import { created, noContent } from '../http/routes';
import { createRole } from '../../domain/identity/createRole';
import { deleteRole } from '../../domain/identity/deleteRole';
import { listMembers, memberOf } from '../../domain/identity/listMembers';
import { listRoles } from '../../domain/identity/listRoles';
import { setMemberRoles } from '../../domain/identity/setMemberRoles';
import { setRolePermissions } from '../../domain/identity/setRolePermissions';
import { CreateRoleBody, MemberParams, MemberRolesBody, RoleParams, RolePermissionsBody } from './dtos';
import { PageQuery } from '../http/dtos';
import { MemberList, MemberView, PermissionGroupView, RoleList, RoleView } from './views';
import {
  CREATE_ROLE,
  DELETE_ROLE,
  MEMBERS,
  PERMISSIONS,
  ROLES,
  SET_MEMBER_ROLES,
  SET_ROLE_PERMISSIONS,
} from './rbac.docs';

/** 403 of a route guarded by `permission` whose use case also applies the escalation rule. */
const deniedOrEscalation = (permission: string, owner = false) => ({
  403: `\`permission_denied\` (needs ${permission}); \`permission_escalation\` (the caller lacks a permission it would grant or take away)${owner ? '; `owner_required`' : ''}`,
});

/** /rbac: roles, their permissions and members' roles in the active organisation. */
export function rbacRoutes({ routes }: ModuleMount): void {
  const r = routes('Roles and permissions');

  r.get(
    '/rbac/permissions',
    {
      summary: 'Permissions that roles can hold',
      description: PERMISSIONS,
      access: 'user',
      permission: 'org.members.read',
      response: [PermissionGroupView],
    },
    () => PermissionGroupView.all(),
  );

  r.get(
    '/rbac/roles',
    {
      summary: 'Roles',
      description: ROLES,
      access: 'user',
      permission: 'org.members.read',
      query: PageQuery,
      response: RoleList,
    },
    async ({ ctx, query }) => {
      const page = await listRoles(ctx, query);
      return mapPage(page, RoleView.withUsage);
    },
  );

  r.post(
    '/rbac/roles',
    {
      summary: 'Create a role',
      description: CREATE_ROLE,
      access: 'user',
      permission: 'rbac.manage',
      body: CreateRoleBody,
      response: RoleView,
      status: 201,
      errors: { ...deniedOrEscalation('rbac.manage'), 409: '`role_key_taken`' },
    },
    async ({ ctx, body, req }) => {
      const role = await createRole(ctx, { ...body, ip: req.ip });
      return created(RoleView.from(role), `/rbac/roles/${role.id}`);
    },
  );

  r.put(
    '/rbac/roles/:roleId/permissions',
    {
      summary: "Set a role's permissions",
      description: SET_ROLE_PERMISSIONS,
      access: 'user',
      permission: 'rbac.manage',
      params: RoleParams,
      body: RolePermissionsBody,
      response: RoleView,
      errors: { ...deniedOrEscalation('rbac.manage'), 409: '`system_role_immutable`' },
    },
    async ({ ctx, params, body, req }) =>
      RoleView.from(
        await setRolePermissions(ctx, { roleId: params.roleId, permissions: body.permissions, ip: req.ip }),
      ),
  );

  r.delete(
    '/rbac/roles/:roleId',
    {
      summary: 'Delete a role',
      description: DELETE_ROLE,
      access: 'user',
      permission: 'rbac.manage',
      params: RoleParams,
      status: 204,
      errors: { 409: '`system_role_immutable`, `role_in_use`' },
    },
    async ({ ctx, params, req }) => {
      await deleteRole(ctx, { roleId: params.roleId, ip: req.ip });
      return noContent();
    },
  );

  r.get(
    '/rbac/members',
    {
      summary: 'Members and their roles',
      description: MEMBERS,
      access: 'user',
      permission: 'org.members.read',
      query: PageQuery,
      response: MemberList,
    },
    async ({ ctx, query }) => {
      const page = await listMembers(ctx, query);
      return mapPage(page, MemberView.from);
    },
  );

  r.put(
    '/rbac/members/:userId/roles',
    {
      summary: "Set a member's roles",
      description: SET_MEMBER_ROLES,
      access: 'user',
      permission: 'org.members.manage',
      params: MemberParams,
      body: MemberRolesBody,
      response: MemberView,
      errors: { ...deniedOrEscalation('org.members.manage', true), 409: '`last_owner`' },
    },
    async ({ ctx, params, body, req }) =>
      MemberView.from(
        memberOf(await setMemberRoles(ctx, { userId: params.userId, roles: body.roles, field: 'roles', ip: req.ip })),
      ),
  );
}
