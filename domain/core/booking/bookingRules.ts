import { DateTime } from 'luxon';
import type { BookingQuestion, DateOverrides } from '../../../entities/core/booking';
import { RULE_BOUNDS } from '../../../entities/core/booking';
import { invalidField } from '../../../lib/errors';
import { merge, type Interval } from '../../hr/availability';
import type { LocalCalendar, Range } from './slots';

/** Pure booking rules beside the slot grid: horizon, date overrides, daily/weekly caps, booking questions. */

/** The end of what may be offered: `to`, or sooner when the service's horizon (days after `now`) ends first. */
export function horizonEnd(to: Date, now: Date, maxAdvanceDays: number | null | undefined): Date {
  if (!maxAdvanceDays) return to;
  const limit = now.getTime() + maxAdvanceDays * 86_400_000;
  return limit < to.getTime() ? new Date(limit) : to;
}

/**
 * Working intervals with a staff member's date overrides applied: on an overridden local day the usual intervals
 * (weekly hours or the HR schedule) give way to the override's ranges "HH:MM-HH:MM" (none: closed that day),
 * read in the calendar's zone (so DST days keep their local hours), clipped to `range`.
 */
export function applyDateOverrides(
  working: Interval[],
  overrides: DateOverrides | null | undefined,
  calendar: LocalCalendar,
  range: Range,
): Interval[] {
  if (!overrides || !Object.keys(overrides).length) return working;
  let out = working;
  const added: Interval[] = [];
  for (const day of calendar.days) {
    const spans = overrides[day.date];
    if (!spans) continue;
    const from = day.start.getTime();
    const to = day.next.getTime();
    out = out.flatMap((i) => {
      const parts: Interval[] = [];
      if (i.start.getTime() < from) parts.push({ start: i.start, end: new Date(Math.min(i.end.getTime(), from)) });
      if (i.end.getTime() > to) parts.push({ start: new Date(Math.max(i.start.getTime(), to)), end: i.end });
      return parts;
    });
    for (const span of spans) {
      const start = day.at(span.slice(0, 5));
      const end = day.at(span.slice(6, 11));
      const clipped = { start: start < range.from ? range.from : start, end: end > range.to ? range.to : end };
      if (clipped.start < clipped.end) added.push(clipped);
    }
  }
  return merge([...out, ...added]);
}

export interface Caps {
  maxPerDay?: number | null;
  maxPerWeek?: number | null;
}

/**
 * Whether a staff member may take one more appointment starting at an instant, given the starts (epoch ms) of
 * their live appointments: fewer than `maxPerDay` that local day and fewer than `maxPerWeek` that local ISO week
 * (Monday to Sunday) in `zone`. Null when no cap is set (every slot passes).
 */
export function capCheck(booked: number[], caps: Caps, zone: string): ((start: number) => boolean) | null {
  if (!caps.maxPerDay && !caps.maxPerWeek) return null;
  const dayKey = (t: number) => DateTime.fromMillis(t, { zone }).toISODate()!;
  const weekKey = (t: number) => DateTime.fromMillis(t, { zone }).toFormat("kkkk-'W'WW");
  const days = new Map<string, number>();
  const weeks = new Map<string, number>();
  for (const t of booked) {
    const d = dayKey(t);
    const w = weekKey(t);
    days.set(d, (days.get(d) ?? 0) + 1);
    weeks.set(w, (weeks.get(w) ?? 0) + 1);
  }
  return (start) =>
    (!caps.maxPerDay || (days.get(dayKey(start)) ?? 0) < caps.maxPerDay) &&
    (!caps.maxPerWeek || (weeks.get(weekKey(start)) ?? 0) < caps.maxPerWeek);
}

/** The local weeks around a range (Monday before `from` to the Sunday after `to`): what the caps count over. */
export function capWindow(range: Range, zone: string): Range {
  return {
    from: DateTime.fromJSDate(range.from, { zone }).startOf('week').toJSDate(),
    to: DateTime.fromJSDate(range.to, { zone }).endOf('week').toJSDate(),
  };
}

/**
 * A booking's answers to its service's questions, kept as given (trimmed): 400 on `answers` for a missing
 * required answer, an unknown question, a choice not offered or a text too long. Null when nothing was asked
 * nor answered.
 */
export function checkAnswers(
  questions: BookingQuestion[],
  answers: Record<string, string> | null | undefined,
): Record<string, string> | null {
  const given = answers ?? {};
  const known = new Map(questions.map((q) => [q.id, q]));
  for (const id of Object.keys(given))
    if (!known.has(id)) throw invalidField('answers', `"${id}" is not a question of this service`);
  const out: Record<string, string> = {};
  for (const q of questions) {
    const raw = given[q.id];
    const value = typeof raw === 'string' ? raw.trim() : '';
    if (!value) {
      if (q.required) throw invalidField('answers', `"${q.id}" (${q.label}) must be answered`);
      continue;
    }
    if (q.kind === 'choice' && !(q.options ?? []).includes(value))
      throw invalidField('answers', `"${q.id}" must be one of: ${(q.options ?? []).join(', ')}`);
    if (value.length > RULE_BOUNDS.maxAnswerLength)
      throw invalidField('answers', `"${q.id}" may be at most ${RULE_BOUNDS.maxAnswerLength} characters`);
    out[q.id] = value;
  }
  return Object.keys(out).length || questions.length ? out : null;
}

/** A question list a service may hold: unique ids, choices for (and only for) `choice` questions. */
export function questionsProblem(questions: BookingQuestion[]): string | null {
  const ids = new Set<string>();
  for (const q of questions) {
    if (ids.has(q.id)) return `question id "${q.id}" is repeated`;
    ids.add(q.id);
    if (q.kind === 'choice' && !q.options?.length) return `choice question "${q.id}" needs options`;
    if (q.kind === 'text' && q.options?.length) return `text question "${q.id}" takes no options`;
  }
  return null;
}
