import { mergeFields, type MergeableCustomer } from './mergeFields';

const customer = (id: string, over: Partial<MergeableCustomer> = {}): MergeableCustomer => ({
  id,
  kind: 'person',
  name: id,
  ownerId: null,
  externalId: null,
  roles: [],
  tags: [],
  emails: [],
  phones: [],
  addresses: [],
  custom: {},
  ...over,
});

describe('mergeFields', () => {
  const s = customer('s', {
    tags: ['vip'],
    emails: [{ type: 'work', value: 'a@x.fr', primary: true }],
    custom: { seats: 3 },
  });
  const m = customer('m', {
    externalId: 'ext-1',
    tags: ['VIP', 'navy'],
    emails: [
      { type: 'home', value: 'A@x.fr', primary: true },
      { type: 'work', value: 'b@x.fr', primary: false },
    ],
    phones: [{ type: 'work', value: '06 12 34 56 78', primary: true }],
    custom: { seats: 5, plan: 'gold' },
  });

  it("keeps the survivor's values, fills its gaps and unites the lists", () => {
    const merged = mergeFields(s, [m], {});
    expect(merged).toMatchObject({
      name: 's',
      externalId: 'ext-1',
      tags: ['vip', 'navy'],
      custom: { seats: 3, plan: 'gold' },
    });
    expect(merged.emails.map((e) => [e.value, e.primary])).toEqual([
      ['a@x.fr', true],
      ['b@x.fr', false],
    ]);
    expect(merged.phones).toHaveLength(1);
  });

  it('takes a chosen field from its source', () =>
    expect(mergeFields(s, [m], { name: 'm', 'custom.seats': 'm' })).toMatchObject({ name: 'm', custom: { seats: 5 } }));

  it('refuses a field it does not choose and a source not in the merge', () => {
    expect(() => mergeFields(s, [m], { primaryEmail: 'm' })).toThrow('Invalid merge fields');
    expect(() => mergeFields(s, [m], { name: 'other' })).toThrow('Invalid merge fields');
  });
});
