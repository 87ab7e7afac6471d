import { DateTime } from 'luxon';
import { FRENCH_RULES, type RuleSet } from './complianceRules';
import { evaluateCompliance } from './evaluateCompliance';
import type { WorkInterval } from './timeline';

const ZONE = 'Europe/Paris';
/** Work intervals from [local date, 'HH:mm', 'HH:mm'] triples (Paris). */
const work = (...spans: [string, string, string][]): WorkInterval[] =>
  spans.map(([date, start, end]) => ({
    start: DateTime.fromISO(`${date}T${start}`, { zone: ZONE }).toJSDate(),
    end: DateTime.fromISO(`${date}T${end}`, { zone: ZONE }).toJSDate(),
    corrected: false,
  }));
const weekOf = (monday: string, days: number, spans: [string, string][]): [string, string, string][] =>
  Array.from({ length: days }, (_, d) => DateTime.fromISO(monday).plus({ days: d }).toISODate()!).flatMap((date) =>
    spans.map(([s, e]) => [date, s, e] as [string, string, string]),
  );
const rulesOf = (intervals: WorkInterval[], from = '2025-03-03', to = '2025-03-09', rules: RuleSet = FRENCH_RULES) =>
  evaluateCompliance(intervals, ZONE, from, to, rules).map((b) => `${b.rule} ${b.periodKey}`);
const STANDARD: [string, string][] = [
  ['09:00', '12:30'],
  ['13:30', '17:00'],
];

describe('compliance rules (French defaults) on known weeks', () => {
  it('finds nothing in a compliant 35 h week', () => {
    expect(rulesOf(work(...weekOf('2025-03-03', 5, STANDARD)))).toEqual([]);
  });

  it('max 10 h a day', () => {
    expect(rulesOf(work(['2025-03-03', '08:00', '13:00'], ['2025-03-03', '13:30', '19:30']))).toEqual([
      'max_daily_hours 2025-03-03',
    ]);
  });

  it('max 48 h in a week', () => {
    const breaches = rulesOf(
      work(
        ...weekOf('2025-03-03', 6, [
          ['08:00', '12:00'],
          ['12:30', '17:30'],
        ]),
      ),
    );
    expect(breaches).toEqual(['max_weekly_hours 2025-W10']);
  });

  it('max 44 h on average over 12 weeks', () => {
    // Twelve weeks of 45 h (never above 48 h in one).
    const weeks = Array.from({ length: 12 }, (_, w) => DateTime.fromISO('2025-03-03').minus({ weeks: w }).toISODate()!);
    const intervals = work(
      ...weeks.flatMap((m) =>
        weekOf(m, 5, [
          ['08:00', '12:00'],
          ['12:30', '17:30'],
        ]),
      ),
    );
    expect(rulesOf(intervals)).toEqual(['max_average_weekly_hours 2025-W10']);
    // Eleven such weeks and one light one: 44.4 h ... still above; with two light weeks it is fine.
    const lighter = work(
      ...weeks.flatMap((m, i) =>
        weekOf(
          m,
          5,
          i < 2
            ? STANDARD
            : [
                ['08:00', '12:00'],
                ['12:30', '17:30'],
              ],
        ),
      ),
    );
    expect(rulesOf(lighter)).toEqual([]);
  });

  it('11 h of daily rest', () => {
    const late = work(
      ['2025-03-03', '13:00', '17:00'],
      ['2025-03-03', '17:30', '21:30'],
      ['2025-03-04', '07:00', '12:00'],
    );
    expect(rulesOf(late)).toEqual(['min_daily_rest 2025-03-04']);
  });

  it('35 h of weekly rest', () => {
    const everyDay = work(
      ...weekOf('2025-03-02', 9, [
        ['09:00', '12:00'],
        ['13:00', '16:00'],
      ]),
    );
    expect(rulesOf(everyDay)).toEqual(['min_weekly_rest 2025-W10']);
  });

  it('a 20-minute break once a day reaches 6 h', () => {
    expect(rulesOf(work(['2025-03-05', '08:00', '14:30']))).toEqual(['min_break 2025-03-05']);
    expect(rulesOf(work(['2025-03-05', '08:00', '11:00'], ['2025-03-05', '11:10', '14:30']))).toEqual([
      'min_break 2025-03-05',
    ]);
    expect(rulesOf(work(['2025-03-05', '08:00', '11:00'], ['2025-03-05', '11:20', '14:30']))).toEqual([]);
  });

  it('counts a night shift across midnight on both days, and turns off rules set to null', () => {
    const night: WorkInterval[] = [
      { start: new Date('2025-03-04T19:00:00Z'), end: new Date('2025-03-05T06:30:00Z'), corrected: false },
    ];
    expect(rulesOf(night)).toEqual(['min_break 2025-03-04']);
    expect(rulesOf(night, undefined, undefined, { ...FRENCH_RULES, maxDailyMinutes: 420 })).toEqual([
      'min_break 2025-03-04',
      'max_daily_hours 2025-03-05',
    ]);
    expect(rulesOf(night, undefined, undefined, { ...FRENCH_RULES, breakAfterMinutes: null })).toEqual([]);
  });
});
