import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { Type } from 'class-transformer';
import { JSONSchema } from 'class-validator-jsonschema';
import type { Request } from 'express';
import type { ModuleMount } from '../http/mount';
import { noContent, Reply, type RouteSpec } from '../http/routes';
import type { RateLimitRule } from '../http/rateLimit';
import { tenantContext } from '../../domain/context';
import { applyScimPatch } from '../../domain/identity/scim/applyScimPatch';
import { deleteScimUser } from '../../domain/identity/scim/deleteScimUser';
import { getScimUser } from '../../domain/identity/scim/getScimUser';
import { listScimUsers, MAX_SCIM_RESULTS } from '../../domain/identity/scim/listScimUsers';
import { MAX_FILTER_LENGTH } from '../../domain/identity/scim/parseScimFilter';
import { provisionScimUser } from '../../domain/identity/scim/provisionScimUser';
import { readScimUser } from '../../domain/identity/scim/scimUserState';
import { updateScimUser } from '../../domain/identity/scim/updateScimUser';
import { getScimGroup, listScimGroups, withoutMembers } from '../../domain/identity/scim/listScimGroups';
import { deleteScimGroup, writeScimGroup } from '../../domain/identity/scim/writeScimGroup';
import { applyScimGroupPatch, readScimGroup } from '../../domain/identity/scim/scimGroupState';
import { requireScimToken, scimBody, scimErrorHandler, scimPrincipalOf } from './scimErrors';
import { resourceTypes, schemas, serviceProviderConfig } from './scimDiscovery';
import * as docs from './scim.docs';
import {
  SCIM_MEDIA_TYPE,
  scimDiscoverySchema,
  scimErrorSchema,
  scimGroupBodySchema,
  scimGroupListSchema,
  scimGroupListView,
  scimGroupSchema,
  scimGroupView,
  scimPatchBodySchema,
  scimUserBodySchema,
  scimUserListSchema,
  scimUserListView,
  scimUserSchema,
  scimUserView,
} from './scimViews';

/** `?filter=&startIndex=&count=` of GET /scim/v2/Users (RFC 7644 3.4.2). */
export class ScimListQuery {
  @JSONSchema({
    description: '`userName eq "x"`, `externalId eq "x"`, `emails.value eq "x"`, `id eq "x"`, joined by `and`',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_FILTER_LENGTH)
  filter?: string;

  @JSONSchema({ description: '1-based index of the first result (default 1)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  startIndex?: number;

  @JSONSchema({ description: `Results per page (default and max ${MAX_SCIM_RESULTS}; 0: the total only)` })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_SCIM_RESULTS)
  count?: number;

  @JSONSchema({ description: 'Accepted for compatibility; every attribute is returned' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  attributes?: string;

  @JSONSchema({ description: 'Accepted for compatibility; every attribute is returned' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  excludedAttributes?: string;
}

/** `?attributes=&excludedAttributes=` of GET /scim/v2/Groups/{id}. */
export class ScimResourceQuery {
  @JSONSchema({ description: 'Accepted for compatibility; every attribute is returned' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  attributes?: string;

  @JSONSchema({ description: "`members` leaves a group's members out; other attributes are returned" })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  excludedAttributes?: string;
}

const PREFIX = '/scim/v2';

/**
 * /scim/v2: SCIM 2.0 provisioning of an organisation's members by its identity provider (Okta, Entra ID), with the
 * organisation's SCIM token (api/identity/scimTokens.ts). Answers are application/scim+json, errors SCIM errors
 * (scimErrors.ts), every request counted per token (SCIM_REQUESTS_PER_MINUTE).
 */
export function scimRoutes({ routes, services, handleErrors }: ModuleMount): void {
  const r = routes('SCIM provisioning');
  const baseUrl = `${services.config.PUBLIC_URL.replace(/\/$/, '')}${PREFIX}`;
  const limits: RateLimitRule[] = [
    {
      name: 'scim',
      limit: services.config.SCIM_REQUESTS_PER_MINUTE,
      by: (req) => req.scim?.tokenId,
      per: 'SCIM token',
    },
  ];
  const common = {
    access: 'public' as const,
    security: [{ scimToken: [] }],
    use: [requireScimToken(services)],
    rateLimits: limits,
    problemContent: { contentType: SCIM_MEDIA_TYPE, schema: scimErrorSchema },
  };
  const writing = { ...common, use: [requireScimToken(services), ...scimBody] };
  const errors = (extra: Record<number, string> = {}): RouteSpec<object, object, object>['errors'] => ({
    401: 'The SCIM token is missing, unknown or revoked, or its organisation is suspended',
    ...extra,
  });
  const body = (schema: Record<string, unknown>, description: string) => ({
    description,
    content: { [SCIM_MEDIA_TYPE]: schema },
  });
  const scim = (value: unknown, status = 200, headers: Record<string, string> = {}) =>
    new Reply(status, value, { 'Content-Type': SCIM_MEDIA_TYPE, ...headers });
  const ctxOf = (req: Request) => tenantContext(services, scimPrincipalOf(req).tenantId, null);
  const document = (schema: Record<string, unknown>, description: string) => ({
    description,
    schema,
    contentType: SCIM_MEDIA_TYPE,
  });

  r.get(
    `${PREFIX}/ServiceProviderConfig`,
    {
      ...common,
      summary: 'SCIM service provider configuration',
      description: docs.SERVICE_PROVIDER_CONFIG,
      response: document(scimDiscoverySchema, 'RFC 7643 5'),
      errors: errors(),
    },
    () => scim(serviceProviderConfig(baseUrl)),
  );
  r.get(
    `${PREFIX}/ResourceTypes`,
    {
      ...common,
      summary: 'SCIM resource types',
      description: docs.RESOURCE_TYPES,
      response: document(scimDiscoverySchema, 'A ListResponse of RFC 7643 6'),
      errors: errors(),
    },
    () => scim(resourceTypes(baseUrl)),
  );
  r.get(
    `${PREFIX}/Schemas`,
    {
      ...common,
      summary: 'SCIM schemas',
      description: docs.SCHEMAS,
      response: document(scimDiscoverySchema, 'A ListResponse of RFC 7643 7'),
      errors: errors(),
    },
    () => scim(schemas(baseUrl)),
  );

  r.get(
    `${PREFIX}/Users`,
    {
      ...common,
      summary: 'List provisioned users',
      description: docs.LIST_USERS,
      query: ScimListQuery,
      response: document(scimUserListSchema, 'A ListResponse of Users'),
      errors: errors({ 400: '`invalidFilter`: a filter this server does not read; `invalidValue`: a bad parameter' }),
    },
    async ({ req, query }) => scim(scimUserListView(await listScimUsers(ctxOf(req), query), baseUrl)),
  );

  r.post(
    `${PREFIX}/Users`,
    {
      ...writing,
      summary: 'Provision a user',
      description: docs.CREATE_USER,
      requestBody: body(scimUserBodySchema, 'A SCIM User'),
      status: 201,
      response: document(scimUserSchema, 'The provisioned User'),
      errors: errors({
        400: '`invalidValue`, `invalidSyntax`',
        409: '`uniqueness`: the userName is provisioned already, or its account already is a member; `tooMany`: no seat left',
        413: 'Body larger than 100kb',
        415: 'Body is not application/scim+json (or application/json)',
      }),
    },
    async ({ req }) => {
      const { tokenId } = scimPrincipalOf(req);
      const record = await provisionScimUser(ctxOf(req), { input: readScimUser(req.body), tokenId, ip: req.ip });
      const view = scimUserView(record, baseUrl);
      return scim(view, 201, { Location: `${baseUrl}/Users/${record.row.userId}` });
    },
  );

  r.get(
    `${PREFIX}/Users/:id`,
    {
      ...common,
      summary: 'A provisioned user',
      description: docs.GET_USER,
      response: document(scimUserSchema, 'The User'),
      errors: errors({ 404: 'No user of this id is provisioned in the organisation' }),
    },
    async ({ req }) => scim(scimUserView(await getScimUser(ctxOf(req), String(req.params.id)), baseUrl)),
  );

  const update =
    (replace: boolean) =>
    async ({ req }: { req: Request }) => {
      const { tokenId } = scimPrincipalOf(req);
      const change = replace
        ? () => {
            const { email: _email, ...state } = readScimUser(req.body);
            return state;
          }
        : (current: Parameters<typeof applyScimPatch>[0]) => applyScimPatch(current, req.body);
      const record = await updateScimUser(ctxOf(req), { id: String(req.params.id), change, tokenId, ip: req.ip });
      return scim(scimUserView(record, baseUrl));
    };
  const updateErrors = errors({
    400: '`invalidValue`, `invalidSyntax`, `invalidPath`, `noTarget`, `mutability`',
    404: 'No user of this id is provisioned in the organisation',
    409: '`uniqueness`: another user holds the userName; `tooMany`: no seat left to reactivate; `mutability`: the last owner',
    413: 'Body larger than 100kb',
    415: 'Body is not application/scim+json (or application/json)',
  });
  r.put(
    `${PREFIX}/Users/:id`,
    {
      ...writing,
      summary: 'Replace a provisioned user',
      description: docs.REPLACE_USER,
      requestBody: body(scimUserBodySchema, 'The whole SCIM User'),
      response: document(scimUserSchema, 'The User'),
      errors: updateErrors,
    },
    update(true),
  );
  r.patch(
    `${PREFIX}/Users/:id`,
    {
      ...writing,
      summary: 'Change a provisioned user',
      description: docs.PATCH_USER,
      requestBody: body(scimPatchBodySchema, 'A SCIM PatchOp'),
      response: document(scimUserSchema, 'The User'),
      errors: updateErrors,
    },
    update(false),
  );

  r.delete(
    `${PREFIX}/Users/:id`,
    {
      ...common,
      summary: 'Deprovision a user',
      description: docs.DELETE_USER,
      status: 204,
      errors: errors({
        404: 'No user of this id is provisioned in the organisation',
        409: '`mutability`: the last owner',
      }),
    },
    async ({ req }) => {
      await deleteScimUser(ctxOf(req), {
        id: String(req.params.id),
        tokenId: scimPrincipalOf(req).tokenId,
        ip: req.ip,
      });
      return noContent();
    },
  );

  r.get(
    `${PREFIX}/Groups`,
    {
      ...common,
      summary: 'List groups',
      description: docs.LIST_GROUPS,
      query: ScimListQuery,
      response: document(scimGroupListSchema, 'A ListResponse of Groups'),
      errors: errors({ 400: '`invalidFilter`: a filter this server does not read; `invalidValue`: a bad parameter' }),
    },
    async ({ req, query }) =>
      scim(
        scimGroupListView(await listScimGroups(ctxOf(req), query), baseUrl, !withoutMembers(query.excludedAttributes)),
      ),
  );

  const groupWriteErrors = (extra: Record<number, string>) =>
    errors({
      400: '`invalidValue` (a member that is not a provisioned User), `invalidSyntax`, `invalidPath`, `noTarget`, `mutability`',
      409: '`uniqueness`: another group has the displayName',
      413: 'Body larger than 100kb',
      415: 'Body is not application/scim+json (or application/json)',
      ...extra,
    });
  r.post(
    `${PREFIX}/Groups`,
    {
      ...writing,
      summary: 'Create a group',
      description: docs.CREATE_GROUP,
      requestBody: body(scimGroupBodySchema, 'A SCIM Group'),
      status: 201,
      response: document(scimGroupSchema, 'The Group'),
      errors: groupWriteErrors({}),
    },
    async ({ req }) => {
      const state = readScimGroup(req.body);
      const record = await writeScimGroup(ctxOf(req), {
        change: () => state,
        tokenId: scimPrincipalOf(req).tokenId,
        ip: req.ip,
      });
      return scim(scimGroupView(record, baseUrl), 201, { Location: `${baseUrl}/Groups/${record.row.id}` });
    },
  );

  r.get(
    `${PREFIX}/Groups/:id`,
    {
      ...common,
      summary: 'A group',
      description: docs.GET_GROUP,
      query: ScimResourceQuery,
      response: document(scimGroupSchema, 'The Group'),
      errors: errors({ 404: 'No group of this id in the organisation' }),
    },
    async ({ req, query }) => {
      const record = await getScimGroup(ctxOf(req), String(req.params.id), query.excludedAttributes);
      return scim(scimGroupView(record, baseUrl, !withoutMembers(query.excludedAttributes)));
    },
  );

  const changeGroup =
    (replace: boolean) =>
    async ({ req }: { req: Request }) => {
      const state = replace ? readScimGroup(req.body) : null;
      const record = await writeScimGroup(ctxOf(req), {
        id: String(req.params.id),
        change: (current) => state ?? applyScimGroupPatch(current, req.body),
        tokenId: scimPrincipalOf(req).tokenId,
        ip: req.ip,
      });
      return scim(scimGroupView(record, baseUrl));
    };
  r.put(
    `${PREFIX}/Groups/:id`,
    {
      ...writing,
      summary: 'Replace a group',
      description: docs.REPLACE_GROUP,
      requestBody: body(scimGroupBodySchema, 'The whole SCIM Group'),
      response: document(scimGroupSchema, 'The Group'),
      errors: groupWriteErrors({ 404: 'No group of this id in the organisation' }),
    },
    changeGroup(true),
  );
  r.patch(
    `${PREFIX}/Groups/:id`,
    {
      ...writing,
      summary: 'Change a group',
      description: docs.PATCH_GROUP,
      requestBody: body(scimPatchBodySchema, 'A SCIM PatchOp'),
      response: document(scimGroupSchema, 'The Group'),
      errors: groupWriteErrors({ 404: 'No group of this id in the organisation' }),
    },
    changeGroup(false),
  );

  r.delete(
    `${PREFIX}/Groups/:id`,
    {
      ...common,
      summary: 'Delete a group',
      description: docs.DELETE_GROUP,
      status: 204,
      errors: errors({ 404: 'No group of this id in the organisation' }),
    },
    async ({ req }) => {
      await deleteScimGroup(ctxOf(req), {
        id: String(req.params.id),
        tokenId: scimPrincipalOf(req).tokenId,
        ip: req.ip,
      });
      return noContent();
    },
  );

  handleErrors('/scim', scimErrorHandler());
}
