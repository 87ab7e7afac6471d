import { nextSortOrder } from './sortOrder';

describe('nextSortOrder', () => {
  it('starts at 0 and goes one past the last', () => {
    expect(nextSortOrder(null)).toBe(0);
    expect(nextSortOrder({ sortOrder: 0 })).toBe(1);
    expect(nextSortOrder({ sortOrder: -5 })).toBe(-4);
  });

  it('stops at the int4 maximum, where new ones tie', () => {
    expect(nextSortOrder({ sortOrder: 2_147_483_646 })).toBe(2_147_483_647);
    expect(nextSortOrder({ sortOrder: 2_147_483_647 })).toBe(2_147_483_647);
  });
});
