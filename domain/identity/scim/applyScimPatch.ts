import { scimProblem } from './scimProblem';
import { activeOf, optionalText, userNameOf, type ScimUserState } from './scimUserState';

/** Operations one PATCH may carry. */
export const MAX_PATCH_OPERATIONS = 100;

type Attribute = 'userName' | 'externalId' | 'givenName' | 'familyName' | 'displayName' | 'active' | 'name';

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:user:';
/** Paths of the attributes this server keeps, lower-cased. */
const KEPT: Record<string, Attribute> = {
  username: 'userName',
  externalid: 'externalId',
  displayname: 'displayName',
  active: 'active',
  name: 'name',
  'name.givenname': 'givenName',
  'name.familyname': 'familyName',
};
/** An attribute path (RFC 7644 3.5.2): a name, sub-attribute, value filter or extension URN. */
const PATH = /^[A-Za-z][\w:.-]*(\[[^\]]{1,500}\])?(\.[A-Za-z][\w-]*)?$/;

/**
 * Applies the Operations of a PATCH (RFC 7644 3.5.2) to a User's state. `op` is add, replace or remove in any case;
 * with a `path` it sets (or removes) that attribute, without one `value` is an object of attributes, dotted
 * names included (`{"active": false}` as Entra ID sends it, `{"name.givenName": "Ada"}`). Paths of attributes this
 * server does not keep (e-mails, phone numbers, the enterprise extension) are accepted and ignored; the account's
 * e-mail is its own and never changed by a provider. userName cannot be removed (400 mutability).
 */
export function applyScimPatch(state: ScimUserState, body: unknown): ScimUserState {
  const next = { ...state };
  for (const { i, kind, path, value } of patchOperations(body)) {
    if (path !== undefined && !PATH.test(path))
      throw scimProblem('invalidPath', `Operations[${i}].path is not a valid attribute path`);
    if (kind === 'remove') {
      if (path === undefined) throw scimProblem('noTarget', `Operations[${i}]: remove needs a path`);
      set(next, attributeOf(path), undefined, true);
    } else if (path !== undefined) {
      set(next, attributeOf(path), value, false);
    } else {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw scimProblem(
          'invalidValue',
          `Operations[${i}].value must be an object of attributes when there is no path`,
        );
      for (const [name, v] of Object.entries(value as Record<string, unknown>)) set(next, attributeOf(name), v, false);
    }
  }
  return next;
}

/** One operation of a PatchOp, its `op` lower-cased. */
export interface PatchOperation {
  i: number;
  kind: 'add' | 'replace' | 'remove';
  path?: string;
  value: unknown;
}

/**
 * The Operations of a PatchOp body (User or Group), checked for shape: a non-empty array of at most
 * MAX_PATCH_OPERATIONS objects, `op` add, replace or remove in any case, `path` a string of at most 1,000 characters.
 */
export function patchOperations(body: unknown): PatchOperation[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw scimProblem('invalidSyntax', 'The body must be a SCIM PatchOp object');
  const operations = (body as Record<string, unknown>).Operations;
  if (!Array.isArray(operations) || operations.length === 0)
    throw scimProblem('invalidSyntax', 'Operations must be a non-empty array');
  if (operations.length > MAX_PATCH_OPERATIONS)
    throw scimProblem('invalidValue', `A PATCH carries at most ${MAX_PATCH_OPERATIONS} operations`);
  return operations.map((raw: unknown, i) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      throw scimProblem('invalidSyntax', `Operations[${i}] must be an object`);
    const { op, path, value } = raw as Record<string, unknown>;
    const kind = typeof op === 'string' ? op.toLowerCase() : '';
    if (kind !== 'add' && kind !== 'replace' && kind !== 'remove')
      throw scimProblem('invalidSyntax', `Operations[${i}].op must be add, replace or remove`);
    if (path !== undefined && (typeof path !== 'string' || path.length > 1000))
      throw scimProblem('invalidPath', `Operations[${i}].path is not a valid attribute path`);
    return { i, kind, path: path as string | undefined, value };
  });
}

/** The kept attribute a path names, or null for one this server ignores. */
function attributeOf(path: string): Attribute | null {
  const bare = path.toLowerCase().startsWith(USER_SCHEMA) ? path.slice(USER_SCHEMA.length) : path;
  return KEPT[bare.toLowerCase()] ?? null;
}

function set(state: ScimUserState, attribute: Attribute | null, value: unknown, remove: boolean): void {
  switch (attribute) {
    case null:
      return;
    case 'userName':
      if (remove) throw scimProblem('mutability', 'userName is required and cannot be removed');
      state.userName = userNameOf(value);
      return;
    case 'active':
      state.active = remove ? false : activeOf(value);
      return;
    case 'name': {
      if (remove || value === null) {
        state.givenName = null;
        state.familyName = null;
        return;
      }
      if (typeof value !== 'object' || Array.isArray(value))
        throw scimProblem('invalidValue', 'name must be an object');
      const name = value as Record<string, unknown>;
      if ('givenName' in name) state.givenName = optionalText(name.givenName, 'givenName');
      if ('familyName' in name) state.familyName = optionalText(name.familyName, 'familyName');
      return;
    }
    default:
      state[attribute] = remove ? null : optionalText(value, attribute);
  }
}
