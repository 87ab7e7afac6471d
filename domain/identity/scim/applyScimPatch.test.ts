import { AppError } from '../../../lib/errors';
import { applyScimPatch } from './applyScimPatch';
import type { ScimUserState } from './scimUserState';

const state: ScimUserState = {
  userName: 'ada@example.com',
  externalId: 'okta-1',
  givenName: 'Ada',
  familyName: 'Lovelace',
  displayName: 'Ada Lovelace',
  active: true,
};
const patch = (...Operations: unknown[]) =>
  applyScimPatch(state, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations });
const refusal = (body: unknown) => {
  try {
    applyScimPatch(state, body);
  } catch (err) {
    return err instanceof AppError ? `${err.status} ${err.code}` : String(err);
  }
  return 'accepted';
};

describe('applyScimPatch', () => {
  it("takes Entra ID's replace without a path, with string booleans and dotted names", () => {
    expect(patch({ op: 'Replace', value: { active: false } })).toEqual({ ...state, active: false });
    expect(patch({ op: 'replace', value: { active: 'False', 'name.givenName': 'Augusta' } })).toEqual({
      ...state,
      active: false,
      givenName: 'Augusta',
    });
  });

  it('sets, adds and removes by path; ignores attributes it does not keep', () => {
    expect(
      patch(
        { op: 'replace', path: 'active', value: false },
        { op: 'add', path: 'name.familyName', value: 'King' },
        { op: 'remove', path: 'externalId' },
        { op: 'add', path: 'emails[type eq "work"].value', value: 'other@example.com' },
        { op: 'replace', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'R&D' },
        { op: 'replace', path: 'userName', value: 'augusta@example.com' },
      ),
    ).toEqual({ ...state, active: false, familyName: 'King', externalId: null, userName: 'augusta@example.com' });
    expect(patch({ op: 'replace', path: 'name', value: { givenName: 'A' } })).toEqual({ ...state, givenName: 'A' });
  });

  it.each([
    [null, '400 scim_invalid_syntax'],
    [{ Operations: [] }, '400 scim_invalid_syntax'],
    [{ Operations: [{ op: 'move', path: 'active' }] }, '400 scim_invalid_syntax'],
    [{ Operations: [{ op: 'remove' }] }, '400 scim_no_target'],
    [{ Operations: [{ op: 'remove', path: 'userName' }] }, '400 scim_mutability'],
    [{ Operations: [{ op: 'replace', path: 'a b', value: 1 }] }, '400 scim_invalid_path'],
    [{ Operations: [{ op: 'replace', path: 'active', value: 'yes' }] }, '400 scim_invalid_value'],
    [{ Operations: [{ op: 'replace', value: 'x' }] }, '400 scim_invalid_value'],
    [{ Operations: [{ op: 'replace', path: 'userName', value: '' }] }, '400 scim_invalid_value'],
    [{ Operations: [{ op: 'replace', path: 'displayName', value: 'x'.repeat(121) }] }, '400 scim_invalid_value'],
  ])('refuses %j with %s', (body, expected) => {
    expect(refusal(body)).toBe(expected);
  });
});
