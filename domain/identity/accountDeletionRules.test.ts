import {
  fateOf,
  lastOwnerConflict,
  pseudonymOf,
  subscriptionConflict,
  type OrganizationStanding,
} from './accountDeletionRules';

const standing = (o: Partial<OrganizationStanding>): OrganizationStanding => ({
  tenantId: 't1',
  name: 'Acme',
  owner: false,
  owners: 1,
  members: 2,
  billed: false,
  ...o,
});

describe('account deletion rules', () => {
  it('names the pseudonym after the first 8 hex digits of the account id', () => {
    expect(pseudonymOf('0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0')).toBe('deleted-user-0f1e2d3c');
    expect(pseudonymOf('abcdef12-0000-4000-8000-000000000000')).toBe('deleted-user-abcdef12');
  });

  it.each([
    ['the only member, owner', { owner: true, owners: 1, members: 1 }, 'close'],
    [
      'the only member of a paid, renewing organisation',
      { owner: true, owners: 1, members: 1, billed: true },
      'billed',
    ],
    ['the last owner among others, paid', { owner: true, owners: 1, members: 3, billed: true }, 'blocked'],
    ['a member of a paid organisation', { owner: false, owners: 1, members: 2, billed: true }, 'leave'],
    [
      'the only member, not owner (an organisation left without owner)',
      { owner: false, owners: 0, members: 1 },
      'close',
    ],
    ['the last owner among others', { owner: true, owners: 1, members: 3 }, 'blocked'],
    ['one of two owners', { owner: true, owners: 2, members: 3 }, 'leave'],
    ['a member', { owner: false, owners: 1, members: 2 }, 'leave'],
    ['a member beside no owner', { owner: false, owners: 0, members: 2 }, 'leave'],
  ])('%s: %s', (_, o, fate) => {
    expect(fateOf(standing(o))).toBe(fate);
  });

  it('answers 409 last_owner naming each organisation', () => {
    const err = lastOwnerConflict([
      { tenantId: 'a', name: 'Acme' },
      { tenantId: 'b', name: 'Globex' },
    ]);
    expect(err).toMatchObject({ status: 409, code: 'last_owner' });
    expect(err.message).toContain('"Acme", "Globex"');
    expect(err.errors).toEqual([
      { field: 'organizations.a', message: 'Acme' },
      { field: 'organizations.b', message: 'Globex' },
    ]);
  });

  it('answers 409 subscription_active naming each organisation still billed', () => {
    const err = subscriptionConflict([{ tenantId: 'a', name: 'Acme' }]);
    expect(err).toMatchObject({ status: 409, code: 'subscription_active' });
    expect(err.errors).toEqual([{ field: 'organizations.a', message: 'Acme' }]);
  });
});
