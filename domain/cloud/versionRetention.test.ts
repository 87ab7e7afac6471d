import { retentionSlot, versionsToPrune } from './versionRetention';

const now = new Date('2026-12-12T12:30:00Z');
const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
const H = 60;
const D = 24 * H;

describe('version retention', () => {
  it.each([
    ['a minute old: never thinned', 1, null],
    ['59 minutes old: never thinned', 59, null],
    ['an hour old: its clock hour', H, `hour:${Math.floor(ago(H).getTime() / 3_600_000)}`],
    ['23 hours old: its clock hour', 23 * H, `hour:${Math.floor(ago(23 * H).getTime() / 3_600_000)}`],
    ['a day old: its day', D, `day:${Math.floor(ago(D).getTime() / 86_400_000)}`],
    ['29 days old: its day', 29 * D, `day:${Math.floor(ago(29 * D).getTime() / 86_400_000)}`],
    ['30 days old: its week', 30 * D, `week:${Math.floor(ago(30 * D).getTime() / 604_800_000)}`],
    ['a year old: its week', 365 * D, `week:${Math.floor(ago(365 * D).getTime() / 604_800_000)}`],
  ])('%s', (_label, minutes, slot) => expect(retentionSlot(ago(minutes), now)).toBe(slot));

  it.each<[string, [string, number][], number, string[]]>([
    ['nothing to thin', [], 50, []],
    [
      'all of the last hour stay',
      [
        ['a', 1],
        ['b', 10],
        ['c', 30],
        ['d', 59],
      ],
      50,
      [],
    ],
    // 12:30 now: 11:25 and 11:05 share the 11:00 hour, the newer (11:25) stays; 10:15 is alone in its hour.
    [
      'one per clock hour in the first day, the newest',
      [
        ['a', 65],
        ['b', 85],
        ['c', 135],
      ],
      50,
      ['b'],
    ],
    // Two days ago at 12:00 and at 09:00 share a day; three days ago is another day.
    [
      'one per day up to 30 days',
      [
        ['a', 2 * D + 30],
        ['b', 2 * D + 210],
        ['c', 3 * D],
      ],
      50,
      ['b'],
    ],
    [
      'one per week after 30 days',
      [
        ['a', 40 * D],
        ['b', 40 * D + 60],
        ['c', 60 * D],
      ],
      50,
      ['b'],
    ],
    [
      'the bands do not share slots',
      [
        ['h', 23 * H],
        ['d', D + 10],
        ['w', 31 * D],
      ],
      50,
      [],
    ],
    [
      'the cap keeps the newest',
      [
        ['a', 1],
        ['b', 2],
        ['c', 3],
        ['d', 4],
      ],
      2,
      ['c', 'd'],
    ],
    [
      'thinned ones do not count against the cap',
      [
        ['a', 1],
        ['b', 65],
        ['c', 85],
        ['d', 135],
      ],
      3,
      ['c'],
    ],
    [
      'a cap of 0 keeps none',
      [
        ['a', 1],
        ['b', 2],
      ],
      0,
      ['a', 'b'],
    ],
  ])('%s', (_label, versions, max, pruned) => {
    const given = versions.map(([id, minutes]) => ({ id, at: ago(minutes) }));
    expect(versionsToPrune(given, now, max).sort()).toEqual([...pruned].sort());
    // Running it again on what it kept deletes nothing more.
    const kept = given.filter((v) => !pruned.includes(v.id));
    expect(versionsToPrune(kept, now, max)).toEqual([]);
  });
});
