import { dayOf, missedQuery, missField, readerKey, viewFields } from './analytics';

describe('reading statistics keys', () => {
  const at = new Date('2026-12-02T23:59:59Z');

  it('counts by UTC day', () => {
    expect(dayOf(at)).toBe('2026-12-02');
    expect(dayOf(new Date('2026-12-03T00:00:00+01:00'))).toBe('2026-12-02');
  });

  it('names a member by id, an anonymous reader by a hash of the day, address and agent', () => {
    expect(readerKey('user-1', '10.0.0.1', 'ua', at)).toBe('user-1');
    const anonymous = readerKey(null, '10.0.0.1', 'ua', at);
    expect(anonymous).toMatch(/^[0-9a-f]{24}$/);
    expect(anonymous).not.toContain('10.0.0.1');
    expect(readerKey(null, '10.0.0.1', 'ua', at)).toBe(anonymous);
    expect(readerKey(null, '10.0.0.2', 'ua', at)).not.toBe(anonymous);
    expect(readerKey(null, '10.0.0.1', 'other', at)).not.toBe(anonymous);
    expect(readerKey(null, '10.0.0.1', 'ua', new Date('2026-12-03T00:00:00Z'))).not.toBe(anonymous);
  });

  it("counts a view for the article and for its space ('-')", () => {
    expect(viewFields({ tenantId: 't', spaceId: 's', articleId: 'a' }, '2026-12-02')).toEqual([
      't|s|a|2026-12-02',
      't|s|-|2026-12-02',
    ]);
  });

  it('groups the same question: trimmed, lower-case, spaces collapsed, at most 200 characters, no field separator', () => {
    expect(missedQuery('  How   To\tINSTALL \n')).toBe('how to install');
    expect(missedQuery('a|b')).toBe('a b');
    expect(missedQuery('x'.repeat(300))).toHaveLength(200);
    expect(missField('t', 's', '2026-12-02', ' A|B ')).toBe('t|s|2026-12-02|a b');
  });
});
