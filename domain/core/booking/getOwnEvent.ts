import type { CalendarEvent } from '../../../entities/core/calendar';
import type { Lean } from '../../../lib/lean';
import type { TenantContext } from '../../context';
import { caller } from './calendarEventRules';
import { ownEventRow } from './store/calendar';

/** GET /api/calendar/events/{id}: one of the caller's events; another member's, a malformed id or another organisation's: 404. */
export const getOwnEvent = (ctx: TenantContext, id: string): Promise<Lean<CalendarEvent>> =>
  ownEventRow(ctx, caller(ctx), id);
