import { CalendarConnection } from '../../../../entities/core/calendar';
import { tenantContext } from '../../../context';
import type { Services } from '../../../services';
import { getBusiness } from '../../org/getBusiness';
import { applySync, recordFailure, storedEtags, type ExternalObjectRow } from '../store/connections';
import { CalDavClientError, discoverCalendars, fetchObjects, objectEtags } from './caldavClient';
import { openPassword } from './connectionSecrets';
import { readExternalObject } from './externalObject';
import { clientOptions } from './policy';

export interface SyncOutcome {
  /** False when the connection is gone (disconnected): nothing was done. */
  synced: boolean;
  fetched: number;
  removed: number;
}

/**
 * Syncs one external calendar: its collections (the URL, or those discovered from the account), the ETags of
 * their objects, then only the objects that are new or changed (calendar-multiget); what the server no longer
 * lists is removed. Applied in one transaction that marks the connection ok. A failure (refused credentials,
 * the server down or answering nonsense) is recorded on the connection (status error, lastError) and thrown,
 * so the job is retried with backoff.
 */
export async function syncConnection(
  services: Services,
  { tenantId, connectionId }: { tenantId: string; connectionId: string },
): Promise<SyncOutcome> {
  const ctx = tenantContext(services, tenantId);
  const connection = await ctx.em.findOne(CalendarConnection, { id: connectionId });
  if (!connection) return { synced: false, fetched: 0, removed: 0 };
  const fail = async (reason: string) => {
    await recordFailure(ctx.em, tenantId, connection.id, reason, new Date());
    return new CalDavClientError(reason);
  };
  const password = openPassword(services, connection.passwordSealed);
  if (password === null) throw await fail('the stored password cannot be opened: connect the calendar again');
  const account = { url: connection.url, username: connection.username, password };
  const options = clientOptions(services.config);
  try {
    const { timeZone } = await getBusiness(ctx);
    const calendars = await discoverCalendars(account, options);
    const stored = await storedEtags(ctx.em, connection.id);
    const seen = new Set<string>();
    const rows: ExternalObjectRow[] = [];
    for (const calendar of calendars) {
      const remote = await objectEtags(account, calendar, options);
      const changed = [...remote].filter(([href, etag]) => stored.get(href) !== etag).map(([href]) => href);
      for (const href of remote.keys()) seen.add(href);
      const objects = changed.length ? await fetchObjects(account, calendar, changed, options) : new Map();
      for (const [href, { etag, data }] of objects) {
        const busy = readExternalObject(data, timeZone);
        // An object that is no event (a task) is stored as free time, so its ETag is known and it is not fetched again.
        rows.push(
          busy
            ? { href, etag, ...busy }
            : {
                href,
                etag,
                startAt: new Date(0),
                endAt: new Date(1000),
                busy: false,
                recurring: false,
                recursUntil: null,
                ical: null,
              },
        );
      }
    }
    const removed = [...stored.keys()].filter((href) => !seen.has(href));
    const synced = await applySync(ctx.em, tenantId, connection, rows, removed, new Date());
    return { synced, fetched: rows.length, removed: synced ? removed.length : 0 };
  } catch (err) {
    if (err instanceof CalDavClientError || err instanceof TypeError) throw await fail(err.message);
    throw err;
  }
}
