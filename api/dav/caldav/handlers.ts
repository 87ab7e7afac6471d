import type { Request, Response } from 'express';
import { busySpans } from '../../../domain/core/booking/slots';
import {
  davChangesSince,
  davSyncNumber,
  listDavResources,
  type DavCalendar,
  type DavResource,
} from '../../../domain/core/booking/caldav/davCalendar';
import { DavProblem } from '../../../domain/core/booking/caldav/davProblem';
import { parseUtc, renderFreeBusy } from '../../../domain/core/booking/caldav/icalObject';
import { putDavEvent } from '../../../domain/core/booking/caldav/putDavEvent';
import { deleteDavEvent } from '../../../domain/core/booking/caldav/deleteDavEvent';
import {
  CALDAV,
  CS,
  DAV,
  child,
  childrenOf,
  is,
  multistatus,
  parseXml,
  type DavResponse,
  type PropName,
  type PropValue,
  type XmlElement,
  type XmlNode,
} from './xml';

/** The CalDAV methods on a member's principal, calendar home, calendar and its resources. */

export const DAV_ROOT = '/dav';
export const CALENDAR_NAME = 'personal';
export const principalHref = (userId: string) => `${DAV_ROOT}/principals/${userId}/`;
export const homeHref = (userId: string) => `${DAV_ROOT}/calendars/${userId}/`;
export const calendarHref = (userId: string) => `${homeHref(userId)}${CALENDAR_NAME}/`;

/** Where a path points: the root, a principal, the home, the calendar or one of its resources. */
export type DavTarget =
  | { kind: 'root' }
  | { kind: 'principal' }
  | { kind: 'home' }
  | { kind: 'calendar' }
  | { kind: 'resource'; name: string };

/** The target of a path for the signed-in member; null (404) for another member's paths or unknown ones. */
export function targetOf(path: string, userId: string): DavTarget | null {
  const p = path.endsWith('/') ? path : `${path}/`;
  if (p === `${DAV_ROOT}/` || p === `${DAV_ROOT}/principals/`) return { kind: 'root' };
  if (p === principalHref(userId)) return { kind: 'principal' };
  if (p === homeHref(userId)) return { kind: 'home' };
  if (p === calendarHref(userId)) return { kind: 'calendar' };
  const prefix = calendarHref(userId);
  if (path.startsWith(prefix)) {
    const name = decodeURIComponent(path.slice(prefix.length));
    if (name && !name.includes('/')) return { kind: 'resource', name };
  }
  return null;
}

const el = (ns: string, name: string, children?: PropValue, attrs?: Record<string, string>): XmlNode => ({
  ns,
  name,
  children,
  attrs,
});
const href = (h: string) => el(DAV, 'href', h);
const syncTokenOf = (base: string, n: number) => `${base}${DAV_ROOT}/sync/${n}`;

/** What a PROPFIND asks: named properties, or all (allprop, an empty body). */
interface PropRequest {
  names: PropName[] | 'all';
}

function propRequest(body: XmlElement | null): PropRequest {
  const prop = child(body ?? undefined, DAV, 'prop');
  if (!prop) return { names: 'all' };
  return { names: prop.children.map((c) => ({ ns: c.ns, name: c.name })) };
}

/** Builds a response from the properties an item has, answering those asked (missing ones 404). */
function respond(h: string, has: Map<string, [PropName, PropValue]>, req: PropRequest): DavResponse {
  if (req.names === 'all') return { href: h, found: [...has.values()] };
  const found: [PropName, PropValue][] = [];
  const missing: PropName[] = [];
  for (const n of req.names) {
    const v = has.get(`${n.ns}|${n.name}`);
    if (v) found.push(v);
    else missing.push(n);
  }
  return { href: h, found, missing };
}

const props = (list: [string, string, PropValue][]) =>
  new Map(list.map(([ns, name, v]) => [`${ns}|${name}`, [{ ns, name }, v] as [PropName, PropValue]]));

function principalProps(cal: Pick<DavCalendar, 'userId'>, email: string) {
  return props([
    [DAV, 'resourcetype', [el(DAV, 'collection'), el(DAV, 'principal')]],
    [DAV, 'displayname', email],
    [DAV, 'current-user-principal', href(principalHref(cal.userId))],
    [DAV, 'principal-URL', href(principalHref(cal.userId))],
    [CALDAV, 'calendar-home-set', href(homeHref(cal.userId))],
    [CALDAV, 'calendar-user-address-set', href(`mailto:${email}`)],
  ]);
}

const REPORTS = ['calendar-query', 'calendar-multiget', 'free-busy-query'];

function calendarProps(cal: DavCalendar, token: string) {
  return props([
    [DAV, 'resourcetype', [el(DAV, 'collection'), el(CALDAV, 'calendar')]],
    [DAV, 'displayname', 'Calendar'],
    [DAV, 'current-user-principal', href(principalHref(cal.userId))],
    [DAV, 'owner', href(principalHref(cal.userId))],
    [CS, 'getctag', token],
    [DAV, 'sync-token', token],
    [CALDAV, 'supported-calendar-component-set', el(CALDAV, 'comp', undefined, { name: 'VEVENT' })],
    [CALDAV, 'calendar-timezone', ''],
    [
      DAV,
      'supported-report-set',
      [
        ...REPORTS.map((r) => el(DAV, 'supported-report', el(DAV, 'report', el(CALDAV, r)))),
        el(DAV, 'supported-report', el(DAV, 'report', el(DAV, 'sync-collection'))),
      ],
    ],
    [
      DAV,
      'current-user-privilege-set',
      ['read', 'write', 'write-content', 'bind', 'unbind'].map((p) => el(DAV, 'privilege', el(DAV, p))),
    ],
  ]);
}

function resourceProps(r: DavResource, withData: boolean) {
  return props([
    [DAV, 'getetag', r.etag],
    [DAV, 'getcontenttype', 'text/calendar; charset=utf-8; component=VEVENT'],
    [DAV, 'resourcetype', ''],
    ...(withData ? [[CALDAV, 'calendar-data', r.ics] as [string, string, PropValue]] : []),
  ]);
}

const resourceHref = (cal: DavCalendar, r: Pick<DavResource, 'name'>) =>
  `${calendarHref(cal.userId)}${encodeURIComponent(r.name)}`;

function sendMultistatus(res: Response, responses: DavResponse[], syncToken?: string): void {
  res.status(207).type('application/xml; charset=utf-8').send(multistatus(responses, syncToken));
}

export interface DavRequestContext {
  cal: DavCalendar;
  email: string;
  target: DavTarget;
  body: XmlElement | null;
  base: string;
  req: Request;
  res: Response;
}

export async function propfind(x: DavRequestContext): Promise<void> {
  const { cal, target, res } = x;
  const depth = x.req.header('depth') ?? 'infinity';
  const req = propRequest(x.body);
  if (target.kind === 'root') {
    const has = props([
      [DAV, 'resourcetype', el(DAV, 'collection')],
      [DAV, 'current-user-principal', href(principalHref(cal.userId))],
      [DAV, 'principal-URL', href(principalHref(cal.userId))],
      [CALDAV, 'calendar-home-set', href(homeHref(cal.userId))],
    ]);
    return sendMultistatus(res, [respond(x.req.path, has, req)]);
  }
  if (target.kind === 'principal')
    return sendMultistatus(res, [respond(principalHref(cal.userId), principalProps(cal, x.email), req)]);
  const token = syncTokenOf(x.base, await davSyncNumber(cal));
  if (target.kind === 'home') {
    const home = props([
      [DAV, 'resourcetype', el(DAV, 'collection')],
      [DAV, 'displayname', 'Calendars'],
      [DAV, 'current-user-principal', href(principalHref(cal.userId))],
      [DAV, 'owner', href(principalHref(cal.userId))],
    ]);
    const out = [respond(homeHref(cal.userId), home, req)];
    if (depth !== '0') out.push(respond(calendarHref(cal.userId), calendarProps(cal, token), req));
    return sendMultistatus(res, out);
  }
  const resources = await listDavResources(cal);
  const withData = req.names !== 'all' && req.names.some((n) => n.ns === CALDAV && n.name === 'calendar-data');
  if (target.kind === 'calendar') {
    const out = [respond(calendarHref(cal.userId), calendarProps(cal, token), req)];
    if (depth !== '0')
      for (const r of resources) out.push(respond(resourceHref(cal, r), resourceProps(r, withData), req));
    return sendMultistatus(res, out);
  }
  const found = resources.find((r) => r.name === target.name);
  if (!found) throw new DavProblem(404, null, 'no such resource');
  sendMultistatus(res, [respond(resourceHref(cal, found), resourceProps(found, withData), req)]);
}

/** The time-range of a calendar-query's filter (VCALENDAR > VEVENT > time-range), if any. */
function queryRange(query: XmlElement): { from: Date | null; to: Date | null } | null {
  const vcal = childrenOf(child(query, CALDAV, 'filter'), CALDAV, 'comp-filter').find(
    (c) => c.attrs.name?.toUpperCase() === 'VCALENDAR',
  );
  const vevent = childrenOf(vcal, CALDAV, 'comp-filter').find((c) => c.attrs.name?.toUpperCase() === 'VEVENT');
  const range = child(vevent, CALDAV, 'time-range');
  if (!range) return null;
  const from = range.attrs.start ? parseUtc(range.attrs.start) : null;
  const to = range.attrs.end ? parseUtc(range.attrs.end) : null;
  if ((range.attrs.start && !from) || (range.attrs.end && !to))
    throw new DavProblem(400, null, 'time-range start and end are UTC times such as 20260329T010000Z');
  return { from, to };
}

/** The token number of a sync-collection's DAV:sync-token (empty: the initial sync), else 403 valid-sync-token. */
export function syncNumberOf(token: string, base: string, latest: number): number {
  if (!token) return 0;
  const prefix = `${base}${DAV_ROOT}/sync/`;
  const n = token.startsWith(prefix) ? Number(token.slice(prefix.length)) : NaN;
  if (!Number.isSafeInteger(n) || n < 0 || n > latest)
    throw new DavProblem(403, { ns: 'DAV:', name: 'valid-sync-token' }, 'unknown sync token');
  return n;
}

export async function report(x: DavRequestContext): Promise<void> {
  const { cal, body, res } = x;
  if (!body) throw new DavProblem(400, null, 'a REPORT needs a body');
  const req = propRequest(body);
  const withData = req.names === 'all' || req.names.some((n) => n.ns === CALDAV && n.name === 'calendar-data');
  if (is(body, CALDAV, 'calendar-query')) {
    const range = queryRange(body);
    const resources = (await listDavResources(cal)).filter(
      (r) => !range || ((!range.to || r.startAt < range.to) && (!range.from || r.endAt > range.from)),
    );
    return sendMultistatus(
      res,
      resources.map((r) => respond(resourceHref(cal, r), resourceProps(r, withData), req)),
    );
  }
  if (is(body, CALDAV, 'calendar-multiget')) {
    const wanted = childrenOf(body, DAV, 'href').map((h) => h.text.trim());
    const byHref = new Map((await listDavResources(cal)).map((r) => [resourceHref(cal, r), r]));
    return sendMultistatus(
      res,
      wanted.map((h) => {
        const path = h.replace(/^https?:\/\/[^/]+/, '');
        const r = byHref.get(path) ?? byHref.get(encodeURI(decodeURIComponent(path)));
        return r ? respond(h, resourceProps(r, withData), req) : { href: h, status: 404 };
      }),
    );
  }
  if (is(body, DAV, 'sync-collection')) {
    const latest = await davSyncNumber(cal);
    const since = syncNumberOf(child(body, DAV, 'sync-token')?.text.trim() ?? '', x.base, latest);
    const token = syncTokenOf(x.base, latest);
    if (since === 0) {
      const all = await listDavResources(cal);
      return sendMultistatus(
        res,
        all.map((r) => respond(resourceHref(cal, r), resourceProps(r, withData), req)),
        token,
      );
    }
    const { changed, gone } = await davChangesSince(cal, since);
    return sendMultistatus(
      res,
      [
        ...changed.map((r) => respond(resourceHref(cal, r), resourceProps(r, withData), req)),
        ...gone.map((name) => ({ href: resourceHref(cal, { name }), status: 404 })),
      ],
      token,
    );
  }
  if (is(body, CALDAV, 'free-busy-query')) {
    const range = child(body, CALDAV, 'time-range');
    const from = parseUtc(range?.attrs.start);
    const to = parseUtc(range?.attrs.end);
    if (!from || !to || !(from < to))
      throw new DavProblem(400, null, 'free-busy-query needs a time-range with UTC start and end');
    const busy = (await listDavResources(cal)).filter((r) => r.busy && r.startAt < to && r.endAt > from);
    const spans = busySpans(
      busy.flatMap((r) => [Math.max(r.startAt.getTime(), from.getTime()), Math.min(r.endAt.getTime(), to.getTime())]),
    );
    res
      .status(200)
      .type('text/calendar; charset=utf-8')
      .send(
        renderFreeBusy(
          spans.starts.map((s, i) => ({ start: new Date(s), end: new Date(spans.ends[i]) })),
          from,
          to,
        ),
      );
    return;
  }
  throw new DavProblem(403, { ns: 'DAV:', name: 'supported-report' }, `REPORT ${body.name} is not supported`);
}

export async function get(x: DavRequestContext, head: boolean): Promise<void> {
  if (x.target.kind !== 'resource') {
    x.res
      .status(200)
      .type('text/plain')
      .send(head ? '' : 'CalDAV calendar of the Platform Suite\n');
    return;
  }
  const name = x.target.name;
  const found = (await listDavResources(x.cal)).find((r) => r.name === name);
  if (!found) throw new DavProblem(404, null, 'no such resource');
  x.res.status(200).type('text/calendar; charset=utf-8').set('ETag', found.etag);
  if (head) x.res.end();
  else x.res.send(found.ics);
}

const conditionsOf = (req: Request) => ({
  ifMatch: req.header('if-match') ?? undefined,
  ifNoneMatch: req.header('if-none-match') ?? undefined,
});

export async function put(x: DavRequestContext, text: string): Promise<void> {
  if (x.target.kind !== 'resource') throw new DavProblem(405, null, 'PUT an event into the calendar collection');
  const type = x.req.header('content-type') ?? '';
  if (type && !/^text\/calendar\b/i.test(type))
    throw new DavProblem(415, { ns: CALDAV, name: 'supported-calendar-data' }, 'text/calendar expected');
  const { created, etag } = await putDavEvent(x.cal, x.target.name, text, conditionsOf(x.req));
  x.res
    .status(created ? 201 : 204)
    .set('ETag', etag)
    .end();
}

export async function remove(x: DavRequestContext): Promise<void> {
  if (x.target.kind !== 'resource') throw new DavProblem(403, null, 'the calendar itself cannot be deleted');
  await deleteDavEvent(x.cal, x.target.name, conditionsOf(x.req));
  x.res.status(204).end();
}

/** The body of a PROPFIND or REPORT: null when empty. */
export const xmlBody = (text: string): XmlElement | null => (text.trim() ? parseXml(text) : null);
