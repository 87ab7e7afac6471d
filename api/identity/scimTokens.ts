import type { ModuleMount } from '../http/mount';
import { describeScimToken } from '../../domain/identity/scim/describeScimToken';
import { issueScimToken } from '../../domain/identity/scim/issueScimToken';
import { revokeScimToken } from '../../domain/identity/scim/revokeScimToken';
import { memberContext } from '../../domain/identity/memberContext';
import { IdParams } from '../http/dtos';
import { noContent } from '../http/routes';
import { noStore } from './request';
import { DESCRIBE_SCIM_TOKEN, ISSUE_SCIM_TOKEN, REVOKE_SCIM_TOKEN } from './scim.docs';
import { IssuedScimTokenView, ScimTokenView } from './scimTokenViews';

/** /orgs/{id}/scim-token: the organisation's SCIM token (org.manage in the organisation of the path). */
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
}
