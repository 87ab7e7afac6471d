import { InvalidCalendarData, readEvent } from '../caldav/icalObject';
import { recurrenceEnd, recurs } from '../recurrence';

/** What an external calendar object gives as busy time (stored in calendar_external_events). */
export interface ExternalBusy {
  startAt: Date;
  endAt: Date;
  busy: boolean;
  recurring: boolean;
  recursUntil: Date | null;
  /** The object itself, kept for a recurring one (its occurrences are expanded when availability is read). */
  ical: string | null;
}

/**
 * An external object read as busy time, or null when it is no event this reads (a task, a journal, not
 * iCalendar): its first occurrence (DTEND or DURATION; dates as local days of `zone`, the business's), free
 * when TRANSP:TRANSPARENT or STATUS:CANCELLED. A recurring one keeps its object; which of its occurrences block
 * time is decided when read (domain/core/booking/recurrence.ts).
 */
export function readExternalObject(text: string, zone: string): ExternalBusy | null {
  let fields;
  try {
    fields = readEvent(text, zone);
  } catch (err) {
    if (err instanceof InvalidCalendarData) return null;
    throw err;
  }
  const recurring = recurs(text);
  const cancelled = /^STATUS:CANCELLED\r?$/im.test(text.split(/BEGIN:VEVENT/i)[1]?.split(/END:VEVENT/i)[0] ?? '');
  return {
    startAt: fields.startAt,
    endAt: fields.endAt,
    busy: recurring || (fields.busy && !cancelled),
    recurring,
    recursUntil: recurring ? recurrenceEnd(text, zone) : null,
    ical: recurring ? text : null,
  };
}
