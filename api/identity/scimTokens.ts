import type { ModuleMount } from '../http/mount';
import { describeScimToken } from '../../domain/identity/scim/describeScimToken';
import { issueScimToken } from '../../domain/identity/scim/issueScimToken';
import { revokeScimToken } from '../../domain/identity/scim/revokeScimToken';
import { memberContext } from '../../domain/identity/memberContext';
import { IdParams } from '../http/dtos';
import { noContent } from '../http/routes';
import { noStore } from './request';
import {
  DESCRIBE_SCIM_TOKEN,
  ISSUE_SCIM_TOKEN,
  LIST_SCIM_GROUP_ROLES,
  MAP_SCIM_GROUP_ROLE,
  REVOKE_SCIM_TOKEN,
} from './scim.docs';
import { listScimGroupRoles, mapScimGroupRole } from '../../domain/identity/scim/mapScimGroupRole';
import { ScimGroupParams, ScimGroupRoleBody } from './dtos';
import { IssuedScimTokenView, ScimGroupRoleListView, ScimGroupRoleView, ScimTokenView } from './scimTokenViews';

/**
 * /orgs/{id}/scim-token and /orgs/{id}/scim-groups: the organisation's SCIM token and the roles its pushed groups grant
 * (org.manage in the organisation of the path).
 */
export function scimTokenRoutes({ routes, services }: ModuleMount): void {
  const r = routes('SCIM provisioning');
  const baseUrl = `${services.config.PUBLIC_URL.replace(/\/$/, '')}/scim/v2`;
  const denied = { 403: '`permission_denied` (needs org.manage)' };

  r.get(
    '/orgs/:id/scim-token',
    {
      summary: "The organisation's SCIM token",
      description: DESCRIBE_SCIM_TOKEN,
      access: 'user',
      params: IdParams,
      response: ScimTokenView,
      errors: denied,
    },
    async ({ auth, params }) =>
      ScimTokenView.from(
        await describeScimToken(await memberContext(services, params.id, auth.userId, 'org.manage')),
        baseUrl,
      ),
  );

  r.post(
    '/orgs/:id/scim-token',
    {
      summary: 'Issue or rotate the SCIM token',
      description: ISSUE_SCIM_TOKEN,
      access: 'user',
      params: IdParams,
      status: 201,
      response: IssuedScimTokenView,
      errors: denied,
    },
    async ({ auth, params, req }) => {
      const ctx = await memberContext(services, params.id, auth.userId, 'org.manage');
      return noStore(IssuedScimTokenView.from(await issueScimToken(ctx, { ip: req.ip }), baseUrl), 201);
    },
  );

  r.delete(
    '/orgs/:id/scim-token',
    {
      summary: 'Revoke the SCIM token',
      description: REVOKE_SCIM_TOKEN,
      access: 'user',
      params: IdParams,
      status: 204,
      errors: { ...denied, 404: 'No SCIM token (or not a member of the organisation)' },
    },
    async ({ auth, params, req }) => {
      await revokeScimToken(await memberContext(services, params.id, auth.userId, 'org.manage'), { ip: req.ip });
      return noContent();
    },
  );

  r.get(
    '/orgs/:id/scim-groups',
    {
      summary: 'SCIM groups and the roles they grant',
      description: LIST_SCIM_GROUP_ROLES,
      access: 'user',
      params: IdParams,
      response: ScimGroupRoleListView,
      errors: denied,
    },
    async ({ auth, params }) => {
      const ctx = await memberContext(services, params.id, auth.userId, 'org.manage');
      return { items: (await listScimGroupRoles(ctx)).map(ScimGroupRoleView.from) };
    },
  );

  r.put(
    '/orgs/:id/scim-groups/:groupId/role',
    {
      summary: 'Map a SCIM group to a role',
      description: MAP_SCIM_GROUP_ROLE,
      access: 'user',
      params: ScimGroupParams,
      body: ScimGroupRoleBody,
      response: ScimGroupRoleView,
      errors: {
        403: '`permission_denied` (needs org.manage) or `permission_escalation` (the role grants what the caller lacks)',
        404: 'No SCIM group of this id in the organisation',
      },
    },
    async ({ auth, params, body, req }) => {
      const ctx = await memberContext(services, params.id, auth.userId, 'org.manage');
      const roleKey = body.roleKey ?? null;
      return ScimGroupRoleView.from(await mapScimGroupRole(ctx, { groupId: params.groupId, roleKey, ip: req.ip }));
    },
  );
}
