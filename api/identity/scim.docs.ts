import { prose } from '../http/docs';
import { MAX_SCIM_RESULTS } from '../../domain/identity/scim/listScimUsers';

/** OpenAPI descriptions of the /scim/v2 routes (api/identity/scim.ts) and the SCIM token routes, wrapped as prose. */

const SURFACE = prose`
  SCIM 2.0 (RFC 7643, 7644) for the organisation's identity provider, authenticated by the organisation's SCIM token.
  Answers and errors are application/scim+json; errors are SCIM errors (\`status\` as a string, \`scimType\`).
`;

export const SERVICE_PROVIDER_CONFIG = `${SURFACE} What this server supports: PATCH and filters (eq, and), no bulk, sort or ETags.`;
export const RESOURCE_TYPES = `${SURFACE} One resource type: User.`;
export const SCHEMAS = `${SURFACE} The attributes of a User this server keeps.`;

export const LIST_USERS = prose`
  ${SURFACE} The organisation's provisioned users, oldest first, from \`startIndex\` (1-based), at most \`count\`
  (${MAX_SCIM_RESULTS}). \`filter\` reads \`userName eq "x"\` (case-insensitive), \`externalId eq "x"\`,
  \`emails.value eq "x"\` and \`id eq "x"\`, joined by \`and\`; anything else is 400 \`invalidFilter\`.
`;

export const CREATE_USER = prose`
  ${SURFACE} Provisions an account into the organisation: the account of the e-mail (userName when it is one, else the
  primary of \`emails\`) or a new one without a password (the person sets one through a password reset). Active
  (the default), it becomes a member with the role \`member\`, taking a seat (409 \`tooMany\` past the plan's seats).
  409 \`uniqueness\` when the userName is provisioned already or the account already is a member. Attributes this
  server does not keep are ignored. Audited \`scim.user_created\`.
`;

export const GET_USER = `${SURFACE} A provisioned user by id (the account id). Another organisation's is a 404.`;

export const REPLACE_USER = prose`
  ${SURFACE} Replaces the provider's names of a user (userName, externalId, name, displayName) and \`active\`. The
  account's e-mail is its own and is not changed. \`active: false\` deprovisions (see PATCH). Audited.
`;

export const PATCH_USER = prose`
  ${SURFACE} Operations add, replace, remove on userName, externalId, displayName, name.givenName, name.familyName
  and active, by path or (without a path) as an object of attributes: Entra ID's
  \`{"op":"replace","value":{"active":false}}\` included. \`active: false\` deprovisions: the membership is removed
  (seat freed, app passwords revoked) and the account's tokens for the organisation are refused at once on every
  instance; \`active: true\` makes it a member again. Audited \`scim.user_updated\`, \`scim.user_deactivated\`,
  \`scim.user_reactivated\`.
`;

export const DELETE_USER = prose`
  ${SURFACE} Deprovisions the user (as \`active: false\`) and forgets the provider's link. The account itself stays.
  Audited \`scim.user_deleted\`.
`;

/** POST /orgs/{id}/scim-token */
export const ISSUE_SCIM_TOKEN = prose`
  Issues the organisation's SCIM token for its identity provider (Okta, Entra ID): \`token\` is shown this once, only
  its SHA-256 is kept. Configure the provider with \`baseUrl\` and the token as a bearer token. Issuing while a token
  exists rotates it: the previous one is refused from the next request on. Needs org.manage. Audited
  (\`scim.token_created\`, \`scim.token_rotated\`).
`;

/** GET /orgs/{id}/scim-token */
export const DESCRIBE_SCIM_TOKEN = prose`
  Whether the organisation has a SCIM token, when it was issued and last used (minute resolution); never the token.
  Needs org.manage.
`;

/** DELETE /orgs/{id}/scim-token */
export const REVOKE_SCIM_TOKEN = prose`
  Revokes the organisation's SCIM token: the provider's next request is refused (401), on every instance. Provisioned
  members stay. 404 when there is none. Needs org.manage. Audited (\`scim.token_revoked\`).
`;

/** GET /scim/v2/Groups */
export const LIST_GROUPS = prose`
  The organisation's groups, oldest first. \`filter\`: \`displayName eq "x"\` (case-insensitive), \`externalId eq "x"\`,
  \`id eq "x"\`, \`members.value eq "<User id>"\`, joined by \`and\`. \`excludedAttributes=members\` leaves the members
  out (what Okta and Entra ID ask when they look a group up). At most 200 per page.
`;

/** POST /scim/v2/Groups */
export const CREATE_GROUP = prose`
  Creates a group (\`displayName\` unique in the organisation, case-insensitive: 409 \`uniqueness\`) with its members
  (\`members[].value\`: ids of provisioned Users; any other id is 400 \`invalidValue\`, nothing created). A new group
  grants no role until an admin maps it (PUT /orgs/{id}/scim-groups/{groupId}/role). Audited \`scim.group_created\`.
`;

/** GET /scim/v2/Groups/{id} */
export const GET_GROUP =
  "A group with its members (`excludedAttributes=members`: without). Another organisation's id is 404.";

/** PUT /scim/v2/Groups/{id} */
export const REPLACE_GROUP = prose`
  Replaces a group's displayName, externalId and members. When the group is mapped to a role, the members who
  joined or left it get their roles from their groups again at once. Audited \`scim.group_updated\` with the members
  added and removed.
`;

/** PATCH /scim/v2/Groups/{id} */
export const PATCH_GROUP = prose`
  Changes a group as Okta and Entra ID do: \`add\` / \`remove\` of \`members\` with a list of \`{"value": id}\`,
  \`remove\` of \`members[value eq "id"]\` (or of \`members\`: all), \`replace\` of \`members\`, \`displayName\` or
  \`externalId\`, or without a path an object of those attributes; \`op\` in any case. Role effects as PUT.
`;

/** DELETE /scim/v2/Groups/{id} */
export const DELETE_GROUP = prose`
  Deletes a group and its memberships; when it was mapped to a role, its members get their roles from their other
  groups (or \`member\`). Audited \`scim.group_deleted\`.
`;

/** GET /orgs/{id}/scim-groups */
export const LIST_SCIM_GROUP_ROLES = prose`
  The groups the identity provider pushed, by name, each with the role it grants (\`roleKey\`, null: none) and its
  member count (at most 500). Needs org.manage.
`;

/** PUT /orgs/{id}/scim-groups/{groupId}/role */
export const MAP_SCIM_GROUP_ROLE = prose`
  Maps a SCIM group to a role of the organisation (\`roleKey\`; null unmaps it). A provisioned member in at least one
  mapped group holds exactly the roles of those groups, from this change on and at each change the provider pushes;
  one who leaves the last of them holds \`member\`. Members never in a mapped group keep the roles given by hand.
  The owner role is not mappable (400) and an owner keeps it. Mapping needs the permissions the role grants (403
  \`permission_escalation\`, as granting it by hand) and org.manage. Audited \`scim.group_role_mapped\`, each role change
  \`scim.member_roles_changed\`.
`;
