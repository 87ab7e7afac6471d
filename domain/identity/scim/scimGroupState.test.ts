import { applyScimGroupPatch, groupRoles, readScimGroup } from './scimGroupState';

const A = '0190a0a0-0000-7000-8000-00000000000a';
const B = '0190a0a0-0000-7000-8000-00000000000b';
const state = { displayName: 'Sales', externalId: null, memberIds: [A] };
const patch = (...Operations: object[]) => applyScimGroupPatch(state, { Operations });
const problem = (scimType: string) =>
  expect.objectContaining({ code: `scim_${scimType.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}` });

describe('SCIM group state', () => {
  it('reads a Group body: displayName required, members each once by their value', () => {
    expect(readScimGroup({ displayName: ' Sales ', members: [{ value: A }, { value: A.toUpperCase() }] })).toEqual({
      displayName: 'Sales',
      externalId: null,
      memberIds: [A],
    });
    expect(() => readScimGroup({ members: [] })).toThrow(problem('invalidValue'));
    expect(() => readScimGroup({ displayName: 'x', members: [{ value: 'not-an-id' }] })).toThrow(
      problem('invalidValue'),
    );
  });

  it("applies Okta's and Entra ID's PATCH forms", () => {
    expect(patch({ op: 'add', path: 'members', value: [{ value: B }] }).memberIds).toEqual([A, B]);
    expect(patch({ op: 'remove', path: `members[value eq "${A}"]` }).memberIds).toEqual([]);
    expect(patch({ op: 'Remove', path: 'members', value: [{ value: A }] }).memberIds).toEqual([]);
    expect(patch({ op: 'remove', path: 'members' }).memberIds).toEqual([]);
    expect(patch({ op: 'replace', path: 'members', value: [{ value: B }] }).memberIds).toEqual([B]);
    expect(patch({ op: 'Replace', value: { displayName: 'Sales EU', externalId: 'x1' } })).toMatchObject({
      displayName: 'Sales EU',
      externalId: 'x1',
    });
    expect(() => patch({ op: 'remove', path: 'displayName' })).toThrow(problem('mutability'));
    expect(() => patch({ op: 'add', path: 'owners', value: [] })).toThrow(problem('invalidPath'));
    expect(() => patch({ op: 'remove' })).toThrow(problem('noTarget'));
  });

  it('grants exactly the mapped roles, the provisioned default in none, and never takes ownership away', () => {
    expect(groupRoles(['admin', 'sales', 'admin'], ['member'], 'member', 'owner')).toEqual(['admin', 'sales']);
    expect(groupRoles([], ['admin'], 'member', 'owner')).toEqual(['member']);
    expect(groupRoles(['sales'], ['owner'], 'member', 'owner')).toEqual(['owner', 'sales']);
  });
});
