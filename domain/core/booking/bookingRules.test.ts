import type { BookingQuestion } from '../../../entities/core/booking';
import { AppError } from '../../../lib/errors';
import { applyDateOverrides, capCheck, capWindow, checkAnswers, horizonEnd, questionsProblem } from './bookingRules';
import { localCalendar, weeklyIntervals } from './slots';

const PARIS = 'Europe/Paris';
const d = (iso: string) => new Date(iso);
const iso = (intervals: { start: Date; end: Date }[]) =>
  intervals.map((i) => `${i.start.toISOString()}/${i.end.toISOString()}`);

describe('booking rules: horizon', () => {
  it.each([
    [null, '2026-03-10T00:00:00.000Z'],
    [3, '2026-03-04T12:00:00.000Z'],
    [30, '2026-03-10T00:00:00.000Z'],
  ])('max %p days ends the offer at %s', (days, end) => {
    expect(horizonEnd(d('2026-03-10T00:00:00Z'), d('2026-03-01T12:00:00Z'), days).toISOString()).toBe(end);
  });
});

describe('booking rules: date overrides across the Europe/Paris changes', () => {
  const hours = { '6': ['09:00-17:00'], '7': ['09:00-17:00'] };
  const cases: [string, string, string, Record<string, string[]>, string[]][] = [
    [
      'a closure removes the day (spring change, Sunday 29 March 2026)',
      '2026-03-28T00:00:00Z',
      '2026-03-30T00:00:00Z',
      { '2026-03-29': [] },
      ['2026-03-28T08:00:00.000Z/2026-03-28T16:00:00.000Z'],
    ],
    [
      'shorter hours are local on the DST day (09:00 CEST is 07:00Z)',
      '2026-03-28T00:00:00Z',
      '2026-03-30T00:00:00Z',
      { '2026-03-29': ['09:00-12:00'] },
      ['2026-03-28T08:00:00.000Z/2026-03-28T16:00:00.000Z', '2026-03-29T07:00:00.000Z/2026-03-29T10:00:00.000Z'],
    ],
    [
      'an override opens a day off (autumn change, Sunday 25 October 2026, 10:00 CET is 09:00Z)',
      '2026-10-24T00:00:00Z',
      '2026-10-27T00:00:00Z',
      { '2026-10-26': ['10:00-11:00'] },
      [
        '2026-10-24T07:00:00.000Z/2026-10-24T15:00:00.000Z',
        '2026-10-25T08:00:00.000Z/2026-10-25T16:00:00.000Z',
        '2026-10-26T09:00:00.000Z/2026-10-26T10:00:00.000Z',
      ],
    ],
    [
      'several ranges a day, clipped to the range asked',
      '2026-03-28T09:00:00Z',
      '2026-03-28T14:30:00Z',
      { '2026-03-28': ['08:00-11:00', '15:00-19:00'] },
      ['2026-03-28T09:00:00.000Z/2026-03-28T10:00:00.000Z', '2026-03-28T14:00:00.000Z/2026-03-28T14:30:00.000Z'],
    ],
  ];
  it.each(cases)('%s', (_name, from, to, overrides, expected) => {
    const range = { from: d(from), to: d(to) };
    const calendar = localCalendar(PARIS, range);
    const working = weeklyIntervals(hours, PARIS, range, calendar);
    expect(iso(applyDateOverrides(working, overrides, calendar, range))).toEqual(expected);
  });

  it('leaves the intervals alone without overrides', () => {
    const range = { from: d('2026-03-28T00:00:00Z'), to: d('2026-03-29T00:00:00Z') };
    const working = [{ start: d('2026-03-28T08:00:00Z'), end: d('2026-03-28T16:00:00Z') }];
    expect(applyDateOverrides(working, {}, localCalendar(PARIS, range), range)).toBe(working);
  });
});

describe('booking rules: daily and weekly caps', () => {
  // Monday 23 March 2026 .. Sunday 29 March (the spring change) form one local ISO week.
  const booked = ['2026-03-23T08:00:00Z', '2026-03-23T09:00:00Z', '2026-03-29T22:30:00Z'].map((t) => d(t).getTime());
  const cases: [string, { maxPerDay?: number; maxPerWeek?: number }, string, boolean][] = [
    ['day cap reached', { maxPerDay: 2 }, '2026-03-23T14:00:00Z', false],
    ['another day is free', { maxPerDay: 2 }, '2026-03-24T14:00:00Z', true],
    // 22:30Z on Sunday 29 March is 00:30 on Monday 30 March in Paris: next week's, next day's.
    ['local midnight decides the day', { maxPerDay: 1 }, '2026-03-30T06:00:00Z', false],
    ['week cap reached', { maxPerWeek: 2 }, '2026-03-27T14:00:00Z', false],
    ['next local week is counted apart', { maxPerWeek: 2 }, '2026-03-31T14:00:00Z', true],
    ['both caps: the day passes, the week not', { maxPerDay: 5, maxPerWeek: 2 }, '2026-03-25T10:00:00Z', false],
  ];
  it.each(cases)('%s', (_name, caps, start, allowed) => {
    expect(capCheck(booked, caps, PARIS)!(d(start).getTime())).toBe(allowed);
  });
  it('no cap: no check', () => expect(capCheck(booked, {}, PARIS)).toBeNull());
  it('counts over the local weeks around the range', () => {
    const w = capWindow({ from: d('2026-03-25T10:00:00Z'), to: d('2026-03-26T10:00:00Z') }, PARIS);
    expect([w.from.toISOString(), w.to.toISOString()]).toEqual([
      '2026-03-22T23:00:00.000Z',
      '2026-03-29T21:59:59.999Z',
    ]);
  });
});

describe('booking rules: questions and answers', () => {
  const questions: BookingQuestion[] = [
    { id: 'allergies', label: 'Allergies', kind: 'text', required: false },
    { id: 'hair', label: 'Hair', kind: 'choice', options: ['short', 'long'], required: true },
  ];
  const refusal = (answers: Record<string, string> | null) => {
    try {
      return checkAnswers(questions, answers);
    } catch (err) {
      if (err instanceof AppError) return `${err.status} ${err.errors?.map((e) => e.field).join()}`;
      throw err;
    }
  };
  it.each([
    ['required and optional answered', { hair: 'long', allergies: '  none ' }, { hair: 'long', allergies: 'none' }],
    ['optional left out', { hair: 'short' }, { hair: 'short' }],
    ['required missing', { allergies: 'x' }, '400 answers'],
    ['required blank', { hair: '  ' }, '400 answers'],
    ['choice not offered', { hair: 'blue' }, '400 answers'],
    ['unknown question', { hair: 'long', colour: 'red' }, '400 answers'],
    ['too long', { hair: 'long', allergies: 'x'.repeat(1001) }, '400 answers'],
    ['nothing given', null, '400 answers'],
  ])('%s', (_name, answers, expected) => expect(refusal(answers)).toEqual(expected));
  it('no questions: nothing kept', () => expect(checkAnswers([], undefined)).toBeNull());
  it.each([
    [questions, null],
    [[...questions, { id: 'hair', label: 'Again', kind: 'text', required: false }], 'question id "hair" is repeated'],
    [[{ id: 'c', label: 'C', kind: 'choice', required: true }], 'choice question "c" needs options'],
    [[{ id: 't', label: 'T', kind: 'text', options: ['a'], required: true }], 'text question "t" takes no options'],
  ] as [BookingQuestion[], string | null][])('question list %#', (list, problem) =>
    expect(questionsProblem(list)).toBe(problem),
  );
});
