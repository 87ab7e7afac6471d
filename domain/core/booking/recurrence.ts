import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { instantOf } from './caldav/icalObject';

/**
 * Recurring iCalendar events (RFC 5545 RRULE, RDATE, EXDATE, RECURRENCE-ID) expanded with ical.js into the busy
 * periods they give in a window. Wall times are read in the event's TZID (an IANA zone or the object's VTIMEZONE),
 * floating times and dates in the business's zone, so a weekly 09:00 meeting stays at 09:00 across a DST change.
 */

export interface Period {
  start: Date;
  end: Date;
}

/**
 * At most this many occurrences are walked per event (from its first one): ical.js cannot jump ahead, so a rule
 * is expanded from its start. 20,000 is a daily event for 54 years; occurrences past it block nothing.
 */
export const MAX_OCCURRENCES = 20_000;

const DAY = 86_400_000;

const tzidOf = (p: ICAL.Property | null): string | null => {
  const value = p?.getParameter('tzid');
  return typeof value === 'string' ? value : null;
};

function parseRoot(text: string): ICAL.Component | null {
  try {
    const root = new ICAL.Component(ICAL.parse(text));
    return root.name === 'vcalendar' ? root : null;
  } catch {
    return null;
  }
}

const isMaster = (c: ICAL.Component) => !c.hasProperty('recurrence-id');
const isRule = (c: ICAL.Component) => c.hasProperty('rrule') || c.hasProperty('rdate');
const cancelled = (c: ICAL.Component) => String(c.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED';
const transparent = (c: ICAL.Component) =>
  String(c.getFirstPropertyValue('transp') ?? 'OPAQUE').toUpperCase() === 'TRANSPARENT';

/** Whether the object's event recurs (an RRULE or RDATE on its master VEVENT). */
export function recurs(text: string): boolean {
  const root = parseRoot(text);
  return !!root?.getAllSubcomponents('vevent').some((c) => isMaster(c) && isRule(c));
}

/** One occurrence's period: the times as ical.js gives them (wall times), read in their property's zone. */
function periodOf(
  start: ICAL.Time,
  end: ICAL.Time,
  item: ICAL.Component,
  root: ICAL.Component,
  zone: string,
): Period | null {
  const at = (t: ICAL.Time, prop: ICAL.Property | null) =>
    t.isDate
      ? DateTime.fromObject({ year: t.year, month: t.month, day: t.day }, { zone }).toJSDate()
      : instantOf(t, tzidOf(prop), root, zone);
  const startProp = item.getFirstProperty('dtstart');
  const startAt = at(start, startProp);
  const endAt = at(end, item.getFirstProperty('dtend') ?? startProp);
  if (Number.isNaN(startAt.getTime()) || Number.isNaN(endAt.getTime())) return null;
  return {
    start: startAt,
    end: endAt > startAt ? endAt : new Date(startAt.getTime() + (start.isDate ? 86_400_000 : 1000)),
  };
}

/**
 * Walks the occurrences of every recurring event of the object that keep their place, in order (instances a
 * RECURRENCE-ID moves or changes are left to `exceptionPeriods`), calling `visit` with each busy one and its
 * recurrence id's instant, until it answers false or MAX_OCCURRENCES are walked. False when cut short by the cap.
 */
function walk(
  root: ICAL.Component,
  zone: string,
  visit: (p: Period, recurrenceStart: Date) => boolean,
  skipBefore = -Infinity,
): boolean {
  const vevents = root.getAllSubcomponents('vevent');
  let complete = true;
  for (const master of vevents.filter((c) => isMaster(c) && isRule(c))) {
    if (cancelled(master) || transparent(master)) continue;
    const uid = master.getFirstPropertyValue('uid');
    const exceptions = vevents.filter((c) => !isMaster(c) && c.getFirstPropertyValue('uid') === uid);
    let event: ICAL.Event;
    let iterator: ICAL.RecurExpansion;
    try {
      event = new ICAL.Event(master, { exceptions });
      iterator = event.iterator();
    } catch {
      continue;
    }
    // Occurrences that end before `skipBefore` are skipped on their wall time read as UTC (off by less than a day
    // from the instant, whatever the zone): converting each to an instant is most of the walk's cost.
    const reach = event.duration.toSeconds() * 1000 + 2 * DAY;
    let walked = 0;
    for (let next = iterator.next(); next; next = iterator.next()) {
      if (++walked > MAX_OCCURRENCES) {
        complete = false;
        break;
      }
      if (next.toUnixTime() * 1000 + reach < skipBefore) continue;
      const details = event.getOccurrenceDetails(next);
      if (details.item !== event) continue;
      const period = periodOf(details.startDate, details.endDate, master, root, zone);
      if (!period) continue;
      if (!visit(period, period.start)) break;
    }
  }
  return complete;
}

/** The busy periods of the instances a RECURRENCE-ID overrides (at their own times; cancelled or free: none). */
function exceptionPeriods(root: ICAL.Component, zone: string): Period[] {
  const vevents = root.getAllSubcomponents('vevent');
  const recurring = new Set(vevents.filter((c) => isMaster(c) && isRule(c)).map((c) => c.getFirstPropertyValue('uid')));
  const out: Period[] = [];
  for (const c of vevents) {
    if (isMaster(c) || !recurring.has(c.getFirstPropertyValue('uid')) || cancelled(c) || transparent(c)) continue;
    const start = c.getFirstPropertyValue('dtstart');
    if (!(start instanceof ICAL.Time)) continue;
    const end = c.getFirstPropertyValue('dtend');
    const duration = c.getFirstPropertyValue('duration');
    let until: ICAL.Time;
    if (end instanceof ICAL.Time) until = end;
    else {
      until = start.clone();
      if (duration instanceof ICAL.Duration) until.addDuration(duration);
      else if (start.isDate) until.day += 1;
    }
    const period = periodOf(start, until, c, root, zone);
    if (period) out.push(period);
  }
  return out;
}

/** The busy periods of the object's recurring events overlapping [from, to), by start. */
export function expandBusy(text: string, zone: string, from: Date, to: Date): Period[] {
  const root = parseRoot(text);
  if (!root) return [];
  const out: Period[] = [];
  walk(
    root,
    zone,
    (p) => {
      if (p.start >= to) return false;
      if (p.end > from) out.push(p);
      return true;
    },
    from.getTime(),
  );
  for (const p of exceptionPeriods(root, zone)) if (p.start < to && p.end > from) out.push(p);
  return out.sort((a, b) => a.start.getTime() - b.start.getTime());
}

/**
 * When the object's recurring events end: the last occurrence's end when every rule ends (UNTIL, COUNT or only
 * RDATEs) within MAX_OCCURRENCES, null when one does not (or the walk was cut short: read as "forever").
 */
export function recurrenceEnd(text: string, zone: string): Date | null {
  const root = parseRoot(text);
  if (!root) return null;
  for (const master of root.getAllSubcomponents('vevent').filter(isMaster)) {
    for (const rule of master.getAllProperties('rrule')) {
      const recur = rule.getFirstValue();
      if (recur instanceof ICAL.Recur && !recur.until && !recur.count) return null;
    }
  }
  let last = 0;
  const complete = walk(root, zone, (p) => {
    last = Math.max(last, p.end.getTime());
    return true;
  });
  for (const p of exceptionPeriods(root, zone)) last = Math.max(last, p.end.getTime());
  return complete && last ? new Date(last) : null;
}
