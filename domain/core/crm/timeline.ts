import { badRequest } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { isUtcTimestamp } from '../../../lib/calendar';

/**
 * The unified timeline of a customer: items of every module that registered a provider (CRM activities here;
 * invoicing its invoices, booking its appointments), merged newest first.
 *
 * Order: `at` descending, then `source` ascending, then `id` descending. A page ends at a cursor naming its
 * last item (at, source, id); the next page asks each provider for the items strictly after that position in
 * this order, which for one source is the key bound `(at, id) < (before.at, before.id)`:
 *   - a source sorting before the cursor's: everything at the cursor's time was shown, so id = NIL_UUID
 *   - the cursor's source: id = the cursor's id
 *   - a source sorting after it: nothing at the cursor's time was shown yet, so id = MAX_UUID
 */
export interface TimelineItem {
  /** The registering module's name for the kind of record: 'activity', 'invoice', 'appointment' ... */
  source: string;
  /** The record's UUID. */
  id: string;
  /** When it happened (activity occurred, invoice issued, appointment starts). Millisecond precision. */
  at: Date;
  /** Finer kind within the source: note, call, email, meeting, task; issued, paid ...; booked, cancelled ... */
  type: string;
  title: string;
  summary: string | null;
  /** Source-specific facts a client may show (amounts, statuses, due dates ...). */
  data: Record<string, unknown>;
}

export interface TimelineQuery {
  /** Items at or after this time (inclusive). */
  from?: Date;
  /** Only items whose key (at, id) is below this bound (see above). */
  before: { at: Date; id: string };
  /** Return at most this many, newest first. */
  limit: number;
}

/** Returns the customer's items of one source matching the query, newest first (at desc, id desc). */
export type TimelineProvider = (
  ctx: TenantContext,
  customerId: string,
  query: TimelineQuery,
) => Promise<TimelineItem[]>;

export const NIL_UUID = '00000000-0000-0000-0000-000000000000';
export const MAX_UUID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

const providers = new Map<string, TimelineProvider>();

/**
 * Registers the provider of one source (once, at module load: `registerTimelineProvider('invoice', fn)`).
 * A provider is called with the customer already checked to belong to the context's organisation.
 */
export function registerTimelineProvider(source: string, provider: TimelineProvider): void {
  if (!/^[a-z][a-z_]{0,39}$/.test(source)) throw new Error(`timeline source ${source}: lowercase letters and _`);
  if (providers.has(source)) throw new Error(`timeline source ${source} is registered twice`);
  providers.set(source, provider);
}

export const timelineSources = () => [...providers.keys()].sort();

interface Position {
  at: Date;
  source: string;
  id: string;
}

export const encodeTimelineCursor = (p: Position) =>
  Buffer.from(`${p.at.toISOString()}|${p.source}|${p.id}`).toString('base64url');

export function decodeTimelineCursor(cursor: string): Position {
  const [at, source, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  // The cursor's own form only (toISOString, years 0001-9999): new Date() takes years PostgreSQL refuses.
  if (!source || !id || !/^[0-9a-f-]{36}$/.test(id) || !isUtcTimestamp(at))
    throw badRequest('validation_failed', 'The cursor is invalid', [
      { field: 'cursor', message: 'is not a timeline cursor' },
    ]);
  return { at: new Date(at), source, id };
}

const compare = (a: TimelineItem, b: TimelineItem) =>
  b.at.getTime() - a.at.getTime() ||
  (a.source < b.source ? -1 : a.source > b.source ? 1 : 0) ||
  (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

export interface TimelinePageProps {
  limit: number;
  cursor?: string;
  from?: Date;
  /** Items before this time (exclusive); default now + 100 years (everything, planned appointments included). */
  to?: Date;
  /** Only these sources (default all). */
  sources?: string[];
}

/** One page of the merged timeline (the customer must already be checked). */
export async function readTimeline(
  ctx: TenantContext,
  customerId: string,
  props: TimelinePageProps,
): Promise<{ items: TimelineItem[]; nextCursor: string | null }> {
  const cursor = props.cursor ? decodeTimelineCursor(props.cursor) : null;
  const to = props.to ?? new Date(Date.now() + 100 * 365 * 86_400_000);
  const sources = timelineSources().filter((s) => !props.sources || props.sources.includes(s));
  const merged: TimelineItem[] = [];
  // One after the other: providers share the context's EntityManager (and its transaction, if any).
  for (const source of sources) {
    let before = { at: to, id: NIL_UUID };
    if (cursor && cursor.at < to)
      before = {
        at: cursor.at,
        id: source < cursor.source ? NIL_UUID : source === cursor.source ? cursor.id : MAX_UUID,
      };
    merged.push(
      ...(await providers.get(source)!(ctx, customerId, { from: props.from, before, limit: props.limit + 1 })),
    );
  }
  merged.sort(compare);
  const items = merged.slice(0, props.limit);
  const last = items[items.length - 1];
  return { items, nextCursor: merged.length > props.limit && last ? encodeTimelineCursor(last) : null };
}
