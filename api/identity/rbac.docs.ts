import { prose } from '../http/docs';

/** OpenAPI descriptions of the /rbac routes (api/identity/rbac.ts), wrapped as prose. */

const ACTIVE_ORG = prose`
  Applies to the active organisation of the access token.
`;

/** The escalation rule (domain/identity/grants.ts), stated where it applies. */
const ESCALATION = prose`
  A caller grants or takes away only permissions it holds itself: otherwise 403 \`permission_escalation\`, whose detail
  names the missing permissions (owners hold every permission).
`;

/** GET /rbac/permissions */
export const PERMISSIONS = prose`
  The catalogue of the suite, grouped by module, with what each permission allows. Needs org.members.read.
`;

/** GET /rbac/roles */
export const ROLES = prose`
  System roles (owner, admin, member) then custom ones, with their permissions and how many members hold each. Needs
  org.members.read. ${ACTIVE_ORG}
`;

/** POST /rbac/roles */
export const CREATE_ROLE = prose`
  A custom role with a key unique in the organisation (409 \`role_key_taken\`) and permissions from GET
  /rbac/permissions (400 for an unknown key). It may hold only permissions the caller holds (403
  \`permission_escalation\`). Needs rbac.manage. ${ACTIVE_ORG}
`;

/** PUT /rbac/roles/:roleId/permissions */
export const SET_ROLE_PERMISSIONS = prose`
  The list replaces the role's permissions (400 for a key not in GET /rbac/permissions). The owner role always holds
  everything (409 \`system_role_immutable\`); admin, member and custom roles can be changed. Every permission added or
  removed must be one the caller holds, and a role the caller holds itself can only lose permissions unless the caller
  is an owner (403 \`permission_escalation\`). Members holding it get the new permissions on their next request. Needs
  rbac.manage. ${ESCALATION} ${ACTIVE_ORG}
`;

/** DELETE /rbac/roles/:roleId */
export const DELETE_ROLE = prose`
  Custom roles only (409 \`system_role_immutable\` for owner, admin, member). A role still held by a member or offered
  by a pending invitation is refused (409 \`role_in_use\`): reassign or revoke first. Needs rbac.manage. ${ACTIVE_ORG}
`;

/** GET /rbac/members */
export const MEMBERS = prose`
  In the order they joined. Needs org.members.read. ${ACTIVE_ORG}
`;

/** PUT /rbac/members/:userId/roles */
export const SET_MEMBER_ROLES = prose`
  The roles (keys, at least one) replace the member's roles; 400 for a key that is not a role of the organisation. Only
  owners grant or revoke owner (403 \`owner_required\`); the last owner keeps it (409 \`last_owner\`). Every role
  granted or taken away must hold only permissions the caller holds (403 \`permission_escalation\`); roles the member
  keeps are not in question. Needs org.members.manage. ${ESCALATION} ${ACTIVE_ORG}
`;
