import { isUUID } from 'class-validator';
import { CalendarEvent, CalendarFeed } from '../../../../entities/core/calendar';
import { Membership } from '../../../../entities/identity/organization';
import type { Em } from '../../../../lib/db';
import { notFound } from '../../../../lib/errors';
import { keysetAfter, keysetTimeKey, lean, type Lean, type LeanScope } from '../../../../lib/lean';
import type { Services } from '../../../services';

/** Statements of members' calendar events and feeds. */

/** One of a member's events; another member's, a malformed id or another organisation's: 404. */
export async function findOwnEvent(em: Em, ownerId: string, id: string): Promise<CalendarEvent> {
  const found = isUUID(id) ? await em.findOne(CalendarEvent, { id, ownerId }) : null;
  if (!found) throw notFound('Calendar event');
  return found;
}

// Lean statements (docs/database-path.md) of the GET routes: the owner is always a condition (events are private).
const ownEventById = lean(CalendarEvent, { where: 'id = $1 and owner_id = $2' });
// One round trip: the page starts after the cursor's position (start to the microsecond $4, id $5; both null on
// the first page) by (start, id), an index range on (tenant_id, owner_id, start_at). The cursor names no row: a
// deleted last event does not move the next page, and another member's cursor only positions the caller among
// their own events.
const ownEventsPage = lean(CalendarEvent, {
  extra: { startKey: keysetTimeKey('calendar_events', 'start_at') },
  where: `owner_id = $1 and ($2::timestamptz is null or end_at > $2) and ($3::timestamptz is null or start_at < $3)
    and ${keysetAfter('calendar_events', 'start_at', '$4::timestamptz', '$5::uuid', "'-infinity'::timestamptz")}`,
  orderBy: 'start_at asc, id asc',
  limitParam: '$6',
});

/** One of a member's events as shown (lean), or 404. */
export const ownEventRow = (scope: LeanScope, ownerId: string, id: string): Promise<Lean<CalendarEvent>> =>
  ownEventById.byId('Calendar event', scope, id, ownerId);

/** Up to `limit` of a member's events overlapping [from, to) after the position (start key, id), by start then id. */
export const ownEventsAfter = (
  scope: LeanScope,
  ownerId: string,
  range: { from: Date | null; to: Date | null },
  after: [string | null, string | null],
  limit: number,
) => ownEventsPage.all(scope, ownerId, range.from, range.to, after[0], after[1], limit);

/** A member's events overlapping [from, to), by start (at most `limit`). */
export const ownEventsBetween = (
  em: Em,
  ownerId: string,
  from: Date,
  to: Date,
  limit: number,
): Promise<CalendarEvent[]> =>
  em.find(
    CalendarEvent,
    { ownerId, startAt: { $lt: to }, endAt: { $gt: from } },
    { orderBy: { startAt: 'asc', id: 'asc' }, limit },
  );

export const feedOfUser = (em: Em, userId: string): Promise<CalendarFeed | null> =>
  em.findOne(CalendarFeed, { userId });

/** Deletes a member's feed (its address stops working). */
export const deleteFeedOfUser = async (em: Em, userId: string): Promise<void> => {
  await em.nativeDelete(CalendarFeed, { userId });
};

/** A feed by id whatever its organisation (the feed route knows no tenant yet). */
export const feedById = (services: Services, id: string): Promise<CalendarFeed | null> =>
  services.orm.em.fork().findOne(CalendarFeed, { id }, { filters: false });

/** Whether a user is a member of the context's organisation. */
export const isMember = async (em: Em, userId: string): Promise<boolean> =>
  (await em.findOne(Membership, { user: userId }, { fields: ['id'] })) !== null;

/** A member's sign-in e-mail. */
export const memberEmail = async (em: Em, userId: string): Promise<string> =>
  (await em.findOneOrFail(Membership, { user: userId }, { populate: ['user'] })).user.email;
