import { columnProblems, withView } from './viewColumns';

describe('saved view rules', () => {
  it('knows the columns of each list and the custom fields of customers', () => {
    const keys = new Set(['seats']);
    expect(columnProblems('customers', ['name', 'tags', 'custom.seats'], keys)).toEqual([]);
    expect(columnProblems('customers', ['name', 'name', 'title', 'custom.nope'], keys)).toEqual([
      'name is listed twice',
      'title is not a column of the customers list',
      'custom.nope: nope is not a custom field of this organisation',
    ]);
    expect(columnProblems('deals', ['title', 'amount'], keys)).toEqual([]);
    expect(columnProblems('deals', ['custom.seats'], keys)).toEqual(['custom.seats is not a column of the deals list']);
  });

  it("applies the view's filters and sort unless the request gives its own", () => {
    const view = { filters: { kind: 'person', tag: 'vip', custom: ['seats:3'] }, sort: '-createdAt' };
    const names = ['kind', 'role', 'tag', 'q', 'custom'];
    expect(withView(view, { limit: 10 }, names)).toEqual({
      limit: 10,
      kind: 'person',
      tag: 'vip',
      custom: ['seats:3'],
      sort: '-createdAt',
    });
    expect(withView(view, { limit: 10, tag: 'gold', custom: ['seats:4'], sort: 'name' }, names)).toEqual({
      limit: 10,
      kind: 'person',
      tag: 'gold',
      custom: ['seats:4'],
      sort: 'name',
    });
    expect(withView({ filters: { status: 'won' }, sort: null }, { limit: 5 }, ['status'])).toEqual({
      limit: 5,
      status: 'won',
    });
  });
});
