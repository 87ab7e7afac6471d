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

const ACTIVE_ORG = 'Applies to the active organisation of the access token.';

/** The escalation rule (domain/identity/grants.ts), stated where it applies. */
const ESCALATION =
  'A caller grants or takes away only permissions it holds itself: otherwise 403 `permission_escalation`, whose detail names the missing permissions (owners hold every permission).';

/** 403 of a route guarded by `permission` whose use case also applies the escalation rule. */
const deniedOrEscalation = (permission: string, owner = false) => ({
  403: `\`permission_denied\` (needs ${permission}); \`permission_escalation\` (the caller lacks a permission it would grant or take away)${owner ? '; `owner_required`' : ''}`,
});

/** /rbac: roles, their permissions and members' roles in the active organisation. */
export function rbacRoutes({ routes }: ModuleMount): void {
  const r = routes('Roles and permissions');

  r.get(
    '/rbac/permissions',
    { summary: 'Permissions that roles can hold', description: 'The catalogue of the suite, grouped by module, with what each permission allows. Needs org.members.read.', access: 'user', permission: 'org.members.read', response: [PermissionGroupView] },
    () => PermissionGroupView.all(),
  );

  r.get(
    '/rbac/roles',
    { summary: 'Roles', description: `System roles (owner, admin, member) then custom ones, with their permissions and how many members hold each. Needs org.members.read. ${ACTIVE_ORG}`, access: 'user', permission: 'org.members.read', query: PageQuery, response: RoleList },
    async ({ ctx, query }) => {
      const page = await listRoles(ctx, query);
      return mapPage(page, RoleView.withUsage);
    },
  );

  r.post(
    '/rbac/roles',
    { summary: 'Create a role', description: `A custom role with a key unique in the organisation (409 \`role_key_taken\`) and permissions from GET /rbac/permissions (400 for an unknown key). It may hold only permissions the caller holds (403 \`permission_escalation\`). Needs rbac.manage. ${ACTIVE_ORG}`, access: 'user', permission: 'rbac.manage', body: CreateRoleBody, response: RoleView, status: 201, errors: { ...deniedOrEscalation('rbac.manage'), 409: '`role_key_taken`' } },
    async ({ ctx, body, req }) => {
      const role = await createRole(ctx, { ...body, ip: req.ip });
      return created(RoleView.from(role), `/rbac/roles/${role.id}`);
    },
  );

  r.put(
    '/rbac/roles/:roleId/permissions',
    {
      summary: "Set a role's permissions",
      description: `The list replaces the role's permissions (400 for a key not in GET /rbac/permissions). The owner role always holds everything (409 \`system_role_immutable\`); admin, member and custom roles can be changed. Every permission added or removed must be one the caller holds, and a role the caller holds itself can only lose permissions unless the caller is an owner (403 \`permission_escalation\`). Members holding it get the new permissions on their next request. Needs rbac.manage. ${ESCALATION} ${ACTIVE_ORG}`,
      access: 'user',
      permission: 'rbac.manage',
      params: RoleParams,
      body: RolePermissionsBody,
      response: RoleView,
      errors: { ...deniedOrEscalation('rbac.manage'), 409: '`system_role_immutable`' },
    },
    async ({ ctx, params, body, req }) => RoleView.from(await setRolePermissions(ctx, { roleId: params.roleId, permissions: body.permissions, ip: req.ip })),
  );

  r.delete(
    '/rbac/roles/:roleId',
    {
      summary: 'Delete a role',
      description: `Custom roles only (409 \`system_role_immutable\` for owner, admin, member). A role still held by a member or offered by a pending invitation is refused (409 \`role_in_use\`): reassign or revoke first. Needs rbac.manage. ${ACTIVE_ORG}`,
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
    { summary: 'Members and their roles', description: `In the order they joined. Needs org.members.read. ${ACTIVE_ORG}`, access: 'user', permission: 'org.members.read', query: PageQuery, response: MemberList },
    async ({ ctx, query }) => {
      const page = await listMembers(ctx, query);
      return mapPage(page, MemberView.from);
    },
  );

  r.put(
    '/rbac/members/:userId/roles',
    {
      summary: "Set a member's roles",
      description: `The roles (keys, at least one) replace the member's roles; 400 for a key that is not a role of the organisation. Only owners grant or revoke owner (403 \`owner_required\`); the last owner keeps it (409 \`last_owner\`). Every role granted or taken away must hold only permissions the caller holds (403 \`permission_escalation\`); roles the member keeps are not in question. Needs org.members.manage. ${ESCALATION} ${ACTIVE_ORG}`,
      access: 'user',
      permission: 'org.members.manage',
      params: MemberParams,
      body: MemberRolesBody,
      response: MemberView,
      errors: { ...deniedOrEscalation('org.members.manage', true), 409: '`last_owner`' },
    },
    async ({ ctx, params, body, req }) => MemberView.from(memberOf(await setMemberRoles(ctx, { userId: params.userId, roles: body.roles, field: 'roles', ip: req.ip }))),
  );
}
