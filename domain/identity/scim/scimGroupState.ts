import { isUUID } from 'class-validator';
import { patchOperations } from './applyScimPatch';
import { scimProblem } from './scimProblem';

/** What this server keeps of a SCIM Group (RFC 7643 4.2): its names and its members (account ids). */
export interface ScimGroupState {
  displayName: string;
  externalId: string | null;
  memberIds: string[];
}

/** Members one request may name (a body is at most 100 kB: ~2,000 `{"value": "<uuid>"}`). */
export const MAX_GROUP_MEMBERS = 2000;

const invalid = (detail: string) => scimProblem('invalidValue', detail);

function textOf(value: unknown, name: 'displayName' | 'externalId'): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalid(`${name} must be a string`);
  const text = value.trim();
  if (text.length > 255) throw invalid(`${name} has at most 255 characters`);
  return text || null;
}

const displayNameOf = (value: unknown) => {
  const name = textOf(value, 'displayName');
  if (!name) throw invalid('displayName is required');
  return name;
};

/** `members`: an array of `{ value: <User id> }` (display, $ref, type are the provider's and ignored), each once. */
function memberIdsOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  if (list.length > MAX_GROUP_MEMBERS) throw invalid(`members holds at most ${MAX_GROUP_MEMBERS} entries a request`);
  const ids = list.map((m, i) => {
    const id = typeof m === 'object' && m !== null ? (m as Record<string, unknown>).value : undefined;
    if (typeof id !== 'string' || !isUUID(id)) throw invalid(`members[${i}].value must be the id of a User`);
    return id.toLowerCase();
  });
  return [...new Set(ids)];
}

/** A Group body as POST and PUT take it. */
export function readScimGroup(body: unknown): ScimGroupState {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw scimProblem('invalidSyntax', 'The body must be a SCIM Group object');
  const b = body as Record<string, unknown>;
  return {
    displayName: displayNameOf(b.displayName),
    externalId: textOf(b.externalId, 'externalId'),
    memberIds: memberIdsOf(b.members),
  };
}

/** `members[value eq "<id>"]`, the path Okta removes one member with. */
const MEMBER_FILTER = /^members\[\s*value\s+eq\s+"([^"]+)"\s*\]$/i;
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:group:';

/**
 * Applies the Operations of a Group PATCH (RFC 7644 3.5.2) as Okta and Entra ID send them: `add` / `remove` of
 * `members` with a value list, `remove` of `members[value eq "id"]` or of all members, `replace` of `members`,
 * `displayName` or `externalId`, or without a path an object of those attributes. `op` in any case.
 */
export function applyScimGroupPatch(state: ScimGroupState, body: unknown): ScimGroupState {
  const operations = patchOperations(body);
  const next = { ...state, memberIds: [...state.memberIds] };
  const members = new Set(next.memberIds);
  const setAttribute = (op: string, rawName: string, value: unknown, i: number) => {
    const name = (rawName.toLowerCase().startsWith(GROUP_SCHEMA) ? rawName.slice(GROUP_SCHEMA.length) : rawName)
      .trim()
      .toLowerCase();
    if (name === 'members') {
      if (op === 'replace') members.clear();
      if (op === 'remove' && (value === undefined || value === null)) return members.clear();
      for (const id of memberIdsOf(value)) {
        if (op === 'remove') members.delete(id);
        else members.add(id);
      }
    } else if (name === 'displayname') {
      if (op === 'remove') throw scimProblem('mutability', 'displayName cannot be removed');
      next.displayName = displayNameOf(value);
    } else if (name === 'externalid') {
      next.externalId = op === 'remove' ? null : textOf(value, 'externalId');
    } else {
      const filtered = MEMBER_FILTER.exec(rawName.trim());
      if (!filtered || op !== 'remove')
        throw scimProblem('invalidPath', `Operations[${i}].path ${rawName} is not an attribute of a Group`);
      members.delete(filtered[1].toLowerCase());
    }
  };
  for (const { i, kind, path, value } of operations) {
    if (path !== undefined) setAttribute(kind, path, value, i);
    else {
      if (kind === 'remove') throw scimProblem('noTarget', `Operations[${i}]: remove needs a path`);
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw invalid(`Operations[${i}].value must be an object of attributes when there is no path`);
      for (const [name, v] of Object.entries(value as Record<string, unknown>)) setAttribute(kind, name, v, i);
    }
  }
  next.memberIds = [...members];
  if (next.memberIds.length > MAX_GROUP_MEMBERS * 50) throw invalid('A group holds at most 100,000 members');
  return next;
}

/**
 * The roles a member holds from SCIM groups: exactly the roles their mapped groups grant, or, in none any more, the
 * role provisioned accounts join with. The owner role is never mapped and never taken away by a group.
 */
export function groupRoles(mapped: string[], current: string[], fallback: string, owner: string): string[] {
  const roles = new Set(mapped.length ? mapped : [fallback]);
  if (current.includes(owner)) roles.add(owner);
  return [...roles].sort();
}
