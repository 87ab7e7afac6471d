import { MAX_SCIM_RESULTS } from '../../domain/identity/scim/listScimUsers';
import { MAX_PATCH_OPERATIONS } from '../../domain/identity/scim/applyScimPatch';
import { SCIM_GROUP_SCHEMA, SCIM_LIST_SCHEMA, SCIM_USER_SCHEMA } from './scimViews';

/** The discovery documents of /scim/v2 (RFC 7644 4): what this server supports, for the identity provider. */

const list = (resources: unknown[]) => ({
  schemas: [SCIM_LIST_SCHEMA],
  totalResults: resources.length,
  startIndex: 1,
  itemsPerPage: resources.length,
  Resources: resources,
});

export const serviceProviderConfig = (baseUrl: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
  documentationUri: `${baseUrl.replace(/\/scim\/v2$/, '')}/docs`,
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: MAX_SCIM_RESULTS },
  changePassword: { supported: false },
  sort: { supported: false },
  etag: { supported: false },
  authenticationSchemes: [
    {
      type: 'oauthbearertoken',
      name: 'SCIM token',
      description: `The organisation's SCIM token (POST /orgs/{id}/scim-token) as a bearer token; PATCH takes at most ${MAX_PATCH_OPERATIONS} operations`,
      primary: true,
    },
  ],
  meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
});

const userResourceType = (baseUrl: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
  id: 'User',
  name: 'User',
  endpoint: '/Users',
  description: 'A member of the organisation',
  schema: SCIM_USER_SCHEMA,
  schemaExtensions: [],
  meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/User` },
});

const groupResourceType = (baseUrl: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
  id: 'Group',
  name: 'Group',
  endpoint: '/Groups',
  description: 'A group of members; an admin maps it to a role of the organisation',
  schema: SCIM_GROUP_SCHEMA,
  schemaExtensions: [],
  meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/Group` },
});

export const resourceTypes = (baseUrl: string) => list([userResourceType(baseUrl), groupResourceType(baseUrl)]);

const attribute = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: 'string',
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

export const schemas = (baseUrl: string) =>
  list([
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
      id: SCIM_USER_SCHEMA,
      name: 'User',
      description: 'A member of the organisation',
      attributes: [
        attribute('userName', { required: true, uniqueness: 'server' }),
        attribute('externalId', { caseExact: true }),
        attribute('displayName'),
        {
          ...attribute('name'),
          type: 'complex',
          subAttributes: [
            attribute('givenName'),
            attribute('familyName'),
            attribute('formatted', { mutability: 'readOnly' }),
          ],
        },
        attribute('active', { type: 'boolean' }),
        {
          ...attribute('emails', { multiValued: true, mutability: 'readOnly' }),
          type: 'complex',
          subAttributes: [attribute('value'), attribute('type'), attribute('primary', { type: 'boolean' })],
        },
      ],
      meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${SCIM_USER_SCHEMA}` },
    },
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
      id: SCIM_GROUP_SCHEMA,
      name: 'Group',
      description: 'A group of members',
      attributes: [
        attribute('displayName', { required: true, uniqueness: 'server' }),
        attribute('externalId', { caseExact: true }),
        {
          ...attribute('members', { multiValued: true }),
          type: 'complex',
          subAttributes: [
            attribute('value', { mutability: 'immutable' }),
            attribute('display', { mutability: 'readOnly' }),
            attribute('$ref', { type: 'reference', referenceTypes: ['User'], mutability: 'immutable' }),
            attribute('type', { mutability: 'immutable', canonicalValues: ['User'] }),
          ],
        },
      ],
      meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${SCIM_GROUP_SCHEMA}` },
    },
  ]);
