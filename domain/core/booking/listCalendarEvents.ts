import type { CalendarEvent } from '../../../entities/core/calendar';
import { isUtcTimestamp } from '../../../lib/calendar';
import type { Lean } from '../../../lib/lean';
import { decodeCursor, toKeysetPage, type Page } from '../../../lib/pagination';
import type { TenantContext } from '../../context';
import { caller } from './calendarEventRules';
import { ownEventsAfter } from './store/calendar';

export interface ListCalendarEventsProps {
  from?: Date;
  to?: Date;
  limit: number;
  cursor?: string;
}

/**
 * The caller's events overlapping [from, to), by start then id; the cursor (opaque) holds the last item's start
 * and id; an unreadable one is 400 `validation_failed` on `cursor`.
 */
export async function listCalendarEvents(
  ctx: TenantContext,
  props: ListCalendarEventsProps,
): Promise<Page<Lean<CalendarEvent>>> {
  const ownerId = caller(ctx);
  const [startKey, id] = props.cursor ? decodeCursor(props.cursor, isUtcTimestamp) : [null, null];
  const rows = await ownEventsAfter(
    ctx,
    ownerId,
    { from: props.from ?? null, to: props.to ?? null },
    [startKey, id],
    props.limit + 1,
  );
  return toKeysetPage(rows, props.limit, (row) => String(row.startKey));
}
