import { assignmentOf, rankRoundRobin, type RecentBookings, type RoundRobinCandidate } from './roundRobin';

const staff = (id: string, priority = 2, weight = 100): RoundRobinCandidate => ({ id, priority, weight });
const at = (iso: string) => new Date(iso);

describe('round robin: who takes a booking that names no staff member', () => {
  const cases: [string, RoundRobinCandidate[], Record<string, RecentBookings>, string[], string][] = [
    [
      'never booked before anyone booked',
      [staff('a'), staff('b')],
      { a: { count: 1, lastBookedAt: at('2026-03-01T10:00:00Z') } },
      ['b', 'a'],
      'fewer_bookings_for_weight',
    ],
    [
      'higher priority first, even with more bookings',
      [staff('a', 2), staff('b', 4)],
      { b: { count: 9, lastBookedAt: at('2026-03-02T10:00:00Z') } },
      ['b', 'a'],
      'higher_priority',
    ],
    [
      'a double weight takes twice the share',
      [staff('a', 2, 200), staff('b', 2, 100)],
      {
        a: { count: 3, lastBookedAt: at('2026-03-02T10:00:00Z') },
        b: { count: 2, lastBookedAt: at('2026-03-01T10:00:00Z') },
      },
      ['a', 'b'],
      'fewer_bookings_for_weight',
    ],
    [
      'same load: the one booked least recently',
      [staff('a'), staff('b')],
      {
        a: { count: 2, lastBookedAt: at('2026-03-02T10:00:00Z') },
        b: { count: 2, lastBookedAt: at('2026-03-01T10:00:00Z') },
      },
      ['b', 'a'],
      'least_recently_booked',
    ],
    ['nothing tells them apart: by id, the same on every dyno', [staff('b'), staff('a')], {}, ['a', 'b'], 'tie'],
  ];
  it.each(cases)('%s', (_, candidates, recent, order, reason) => {
    const map = new Map(Object.entries(recent));
    const ranked = rankRoundRobin(candidates, map);
    expect(ranked.map((c) => c.id)).toEqual(order);
    expect(assignmentOf(ranked[0]!, ranked, map)).toMatchObject({ method: 'round_robin', reason, considered: 2 });
  });

  it('shares eight bookings by weight when each goes to the first ranked', () => {
    const candidates = [staff('heavy', 2, 300), staff('light', 2, 100)];
    const recent = new Map<string, RecentBookings>();
    for (let i = 0; i < 8; i++) {
      const [first] = rankRoundRobin(candidates, recent);
      const r = recent.get(first!.id) ?? { count: 0, lastBookedAt: null };
      recent.set(first!.id, { count: r.count + 1, lastBookedAt: new Date(Date.UTC(2026, 2, 1, i)) });
    }
    expect([recent.get('heavy')?.count, recent.get('light')?.count]).toEqual([6, 2]);
  });

  it('reports a named staff member as requested, and the last one left as the only one available', () => {
    const a = staff('a');
    expect(assignmentOf(a, [a], null)).toMatchObject({ method: 'requested', reason: 'requested' });
    const ranked = [staff('x'), a];
    expect(assignmentOf(a, ranked, new Map())).toMatchObject({ method: 'round_robin', reason: 'only_available' });
  });
});
