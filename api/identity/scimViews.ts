import type { ScimUserRecord } from '../../domain/identity/scim/scimUserRecords';
import type { ScimUserList } from '../../domain/identity/scim/listScimUsers';
import type { ScimGroupList } from '../../domain/identity/scim/listScimGroups';
import type { ScimGroupRecord } from '../../domain/identity/scim/scimGroupRecords';

/**
 * The SCIM 2.0 documents of /scim/v2 (RFC 7643, 7644) and their JSON schemas for /openapi.json. SCIM resources
 * are shaped by the RFCs, not by the suite's DTO conventions (their `schemas` lists, `Resources`, URN keys), so
 * they are declared as schemas here.
 */

export const SCIM_MEDIA_TYPE = 'application/scim+json';
export const SCIM_USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const SCIM_GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const SCIM_LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const SCIM_PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

type Schema = Record<string, unknown>;
const text = (maxLength: number, description: string): Schema => ({ type: 'string', maxLength, description });

export const scimErrorSchema: Schema = {
  type: 'object',
  description: 'A SCIM error (RFC 7644 3.12): `status` is the HTTP status as a string; `scimType` says what was wrong',
  required: ['schemas', 'status', 'detail'],
  additionalProperties: false,
  properties: {
    schemas: { type: 'array', items: { const: SCIM_ERROR_SCHEMA } },
    status: { type: 'string', pattern: '^[45]\\d\\d$' },
    scimType: {
      enum: [
        'invalidFilter',
        'tooMany',
        'uniqueness',
        'mutability',
        'invalidSyntax',
        'invalidPath',
        'noTarget',
        'invalidValue',
      ],
    },
    detail: { type: 'string' },
  },
};

const nameSchema: Schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    givenName: text(120, 'Given name'),
    familyName: text(120, 'Family name'),
    formatted: text(241, 'Given and family name'),
  },
};

export const scimUserSchema: Schema = {
  type: 'object',
  description: 'A provisioned account (RFC 7643 4.1); `id` is the account id',
  required: ['schemas', 'id', 'userName', 'active', 'emails', 'meta'],
  additionalProperties: false,
  properties: {
    schemas: { type: 'array', items: { const: SCIM_USER_SCHEMA } },
    id: { type: 'string', format: 'uuid' },
    externalId: text(255, "The identity provider's id of the user"),
    userName: text(254, 'Unique in the organisation, case-insensitive'),
    name: nameSchema,
    displayName: text(120, 'Display name'),
    active: { type: 'boolean', description: 'Whether the account is a member of the organisation' },
    emails: {
      type: 'array',
      description: "The account's e-mail (its own: providers cannot change it)",
      items: {
        type: 'object',
        additionalProperties: false,
        properties: { value: { type: 'string' }, primary: { type: 'boolean' }, type: { type: 'string' } },
      },
    },
    meta: {
      type: 'object',
      additionalProperties: false,
      properties: {
        resourceType: { const: 'User' },
        created: { type: 'string', format: 'date-time' },
        lastModified: { type: 'string', format: 'date-time' },
        location: { type: 'string' },
      },
    },
  },
};

export const scimUserListSchema: Schema = {
  type: 'object',
  required: ['schemas', 'totalResults', 'startIndex', 'itemsPerPage', 'Resources'],
  additionalProperties: false,
  properties: {
    schemas: { type: 'array', items: { const: SCIM_LIST_SCHEMA } },
    totalResults: { type: 'integer' },
    startIndex: { type: 'integer' },
    itemsPerPage: { type: 'integer' },
    Resources: { type: 'array', items: scimUserSchema },
  },
};

/** Request bodies: a User as POST and PUT take it (attributes not listed are accepted and ignored). */
export const scimUserBodySchema: Schema = {
  type: 'object',
  required: ['userName'],
  properties: {
    schemas: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 200 } },
    userName: { ...text(254, 'An e-mail address, or another name with a primary e-mail in `emails`'), minLength: 1 },
    externalId: text(255, "The identity provider's id of the user"),
    name: nameSchema,
    displayName: text(120, 'Display name'),
    active: { type: 'boolean', description: 'Default true: the account becomes a member (a seat)' },
    emails: {
      type: 'array',
      maxItems: 20,
      items: {
        type: 'object',
        properties: {
          value: text(254, 'An e-mail address'),
          primary: { type: 'boolean' },
          type: text(40, 'work, home ...'),
        },
      },
    },
  },
};

export const scimPatchBodySchema: Schema = {
  type: 'object',
  required: ['Operations'],
  properties: {
    schemas: { type: 'array', maxItems: 10, items: { const: SCIM_PATCH_SCHEMA } },
    Operations: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: {
        type: 'object',
        required: ['op'],
        properties: {
          op: {
            type: 'string',
            pattern: '^([Aa][Dd][Dd]|[Rr][Ee][Pp][Ll][Aa][Cc][Ee]|[Rr][Ee][Mm][Oo][Vv][Ee])$',
            description: 'add, replace or remove (any case)',
            examples: ['replace'],
          },
          path: text(1000, 'An attribute path: userName, externalId, displayName, active, name.givenName ...'),
          value: { description: 'The value; without a path, an object of attributes (`{"active": false}`)' },
        },
      },
    },
  },
};

const memberSchema: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['value'],
  properties: {
    value: { type: 'string', format: 'uuid', description: 'The User id (the account id)' },
    display: { type: 'string', description: "The member's userName" },
    $ref: { type: 'string' },
    type: { const: 'User' },
  },
};

export const scimGroupSchema: Schema = {
  type: 'object',
  description: 'A group the identity provider pushes (RFC 7643 4.2); its members hold the role an admin maps it to',
  required: ['schemas', 'id', 'displayName', 'meta'],
  additionalProperties: false,
  properties: {
    schemas: { type: 'array', items: { const: SCIM_GROUP_SCHEMA } },
    id: { type: 'string', format: 'uuid' },
    externalId: text(255, "The identity provider's id of the group"),
    displayName: text(255, 'Unique in the organisation, case-insensitive'),
    members: { type: 'array', description: 'Left out with excludedAttributes=members', items: memberSchema },
    meta: {
      type: 'object',
      additionalProperties: false,
      properties: {
        resourceType: { const: 'Group' },
        created: { type: 'string', format: 'date-time' },
        lastModified: { type: 'string', format: 'date-time' },
        location: { type: 'string' },
      },
    },
  },
};

export const scimGroupListSchema: Schema = {
  ...scimUserListSchema,
  properties: {
    ...(scimUserListSchema.properties as Schema),
    Resources: { type: 'array', items: scimGroupSchema },
  },
};

export const scimGroupBodySchema: Schema = {
  type: 'object',
  required: ['displayName'],
  properties: {
    schemas: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 200 } },
    displayName: { ...text(255, 'Unique in the organisation, case-insensitive'), minLength: 1 },
    externalId: text(255, "The identity provider's id of the group"),
    members: {
      type: 'array',
      maxItems: 2000,
      items: { type: 'object', required: ['value'], properties: { value: { type: 'string', format: 'uuid' } } },
    },
  },
};

/** Documents the discovery endpoints: their shape is the RFC's. */
export const scimDiscoverySchema: Schema = { type: 'object', additionalProperties: true };

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : undefined);

/** A provisioned account as SCIM shows it: absent attributes are left out, as RFC 7643 2.5 has it. */
export function scimUserView(record: ScimUserRecord, baseUrl: string): Schema {
  const { row } = record;
  const given = row.givenName ?? undefined;
  const family = row.familyName ?? undefined;
  const formatted = [given, family].filter(Boolean).join(' ') || undefined;
  return {
    schemas: [SCIM_USER_SCHEMA],
    id: row.userId,
    ...(row.externalId ? { externalId: row.externalId } : {}),
    userName: row.userName,
    ...(given || family ? { name: { givenName: given, familyName: family, formatted } } : {}),
    ...(row.displayName ? { displayName: row.displayName } : {}),
    active: record.active,
    emails: record.email ? [{ value: record.email, primary: true, type: 'work' }] : [],
    meta: {
      resourceType: 'User',
      created: iso(row.createdAt),
      lastModified: iso(row.updatedAt),
      location: `${baseUrl}/Users/${row.userId}`,
    },
  };
}

export function scimUserListView(list: ScimUserList, baseUrl: string): Schema {
  return {
    schemas: [SCIM_LIST_SCHEMA],
    totalResults: list.totalResults,
    startIndex: list.startIndex,
    itemsPerPage: list.Resources.length,
    Resources: list.Resources.map((r) => scimUserView(r, baseUrl)),
  };
}

/** A group as SCIM shows it; members left out when excluded (excludedAttributes=members). */
export function scimGroupView(record: ScimGroupRecord, baseUrl: string, withMembers = true): Schema {
  const { row } = record;
  return {
    schemas: [SCIM_GROUP_SCHEMA],
    id: row.id,
    ...(row.externalId ? { externalId: row.externalId } : {}),
    displayName: row.displayName,
    ...(withMembers
      ? {
          members: record.members.map((m) => ({
            value: m.userId,
            display: m.userName,
            $ref: `${baseUrl}/Users/${m.userId}`,
            type: 'User',
          })),
        }
      : {}),
    meta: {
      resourceType: 'Group',
      created: iso(row.createdAt),
      lastModified: iso(row.updatedAt),
      location: `${baseUrl}/Groups/${row.id}`,
    },
  };
}

export function scimGroupListView(list: ScimGroupList, baseUrl: string, withMembers: boolean): Schema {
  return {
    schemas: [SCIM_LIST_SCHEMA],
    totalResults: list.totalResults,
    startIndex: list.startIndex,
    itemsPerPage: list.Resources.length,
    Resources: list.Resources.map((r) => scimGroupView(r, baseUrl, withMembers)),
  };
}
