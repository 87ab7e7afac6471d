import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { XMLParser } from 'fast-xml-parser';
import type { AddressPolicy } from '../../../webhooks/addressPolicy';
import { RefusedTarget, resolveTarget } from '../../../webhooks/resolveTarget';

/**
 * A small CalDAV client (RFC 4791 over WebDAV, RFC 4918) for reading external calendars: discovery (the URL itself,
 * or current-user-principal and calendar-home-set), the ETags of a calendar's objects (PROPFIND Depth 1) and the
 * objects that changed (REPORT calendar-multiget). Every request goes to the addresses the host resolved to, each
 * checked by the address policy (no second resolution: a DNS rebinding reaches nothing), with Basic credentials,
 * within a time bound and a size bound; redirects are not followed.
 */

/** Why a sync failed, in words for the member (the connection's lastError). */
export class CalDavClientError extends Error {}

export interface CalDavAccount {
  url: string;
  username: string;
  password: string;
}

export interface ClientOptions {
  policy: AddressPolicy;
  timeoutMs: number;
  /** Bound of one answer's body. */
  maxBytes: number;
}

interface Answer {
  status: number;
  body: string;
}

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: false,
  isArray: (name) => ['response', 'propstat', 'href', 'comp'].includes(name),
});

async function request(
  account: CalDavAccount,
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string,
  options: ClientOptions,
): Promise<Answer> {
  let addresses: { address: string; family: number }[];
  try {
    addresses = await resolveTarget(url, options.policy);
  } catch (err) {
    if (err instanceof RefusedTarget) throw new CalDavClientError(`address refused: ${err.message}`);
    throw err;
  }
  const pinned: LookupFunction = (_host, opts, callback) => {
    if (opts.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  };
  const client = url.protocol === 'https:' ? https : http;
  const auth = Buffer.from(`${account.username}:${account.password}`).toString('base64');
  return new Promise<Answer>((resolve, reject) => {
    const req = client.request(
      url,
      {
        method,
        lookup: pinned,
        agent: false,
        timeout: options.timeoutMs,
        headers: {
          ...headers,
          authorization: `Basic ${auth}`,
          'content-type': 'application/xml; charset=utf-8',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'platform-suite-calendar-sync/1',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            res.destroy();
            reject(new CalDavClientError(`the server's answer is over ${options.maxBytes} bytes`));
          } else chunks.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (err) => reject(new CalDavClientError(`the answer was cut: ${err.message}`)));
      },
    );
    const timer = setTimeout(
      () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    req.on('close', () => clearTimeout(timer));
    req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    req.on('error', (err: NodeJS.ErrnoException) =>
      reject(new CalDavClientError(`${url.host} did not answer: ${err.code ?? err.message}`)),
    );
    req.end(body);
  });
}

/** A multistatus answer's responses: each href (absolute) with its properties of status 200. */
interface DavResponse {
  href: URL;
  props: Record<string, unknown>;
}

function multistatus(answer: Answer, base: URL, what: string): DavResponse[] {
  if (answer.status === 401 || answer.status === 403)
    throw new CalDavClientError(`the server refused the user name or password (${answer.status})`);
  if (answer.status !== 207)
    throw new CalDavClientError(`${what}: the server answered ${answer.status} where 207 Multi-Status was expected`);
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(answer.body) as Record<string, unknown>;
  } catch {
    throw new CalDavClientError(`${what}: the server's answer is not XML`);
  }
  const root = doc.multistatus as { response?: Record<string, unknown>[] } | undefined;
  if (!root) throw new CalDavClientError(`${what}: the server's answer is not a DAV multistatus`);
  const out: DavResponse[] = [];
  for (const r of root.response ?? []) {
    const href = (r.href as string[] | undefined)?.[0];
    if (!href) continue;
    const props: Record<string, unknown> = {};
    for (const ps of (r.propstat as Record<string, unknown>[] | undefined) ?? []) {
      if (!/\s200\s/.test(` ${String(ps.status ?? '')} `)) continue;
      Object.assign(props, (ps.prop as Record<string, unknown> | undefined) ?? {});
    }
    out.push({ href: new URL(href, base), props });
  }
  return out;
}

const hrefOf = (value: unknown, base: URL): URL | null => {
  const href = (value as { href?: string[] } | undefined)?.href?.[0];
  return href ? new URL(href, base) : null;
};
const isCalendar = (props: Record<string, unknown>) =>
  typeof props.resourcetype === 'object' && props.resourcetype !== null && 'calendar' in props.resourcetype;
const sameResource = (a: URL, b: URL) => a.href.replace(/\/$/, '') === b.href.replace(/\/$/, '');

const propfind = (props: string) =>
  `<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop>${props}</d:prop></d:propfind>`;

/**
 * The calendar collections of the account: the URL itself when it is one, else the VEVENT calendars of its
 * calendar home (named by the URL, or by its principal's calendar-home-set).
 */
export async function discoverCalendars(account: CalDavAccount, options: ClientOptions): Promise<URL[]> {
  const base = new URL(account.url);
  const first = multistatus(
    await request(
      account,
      base,
      'PROPFIND',
      { depth: '0' },
      propfind('<d:resourcetype/><d:current-user-principal/><c:calendar-home-set/>'),
      options,
    ),
    base,
    'discovery',
  );
  const self = first.find((r) => sameResource(r.href, base)) ?? first[0];
  if (!self) throw new CalDavClientError('discovery: the server described nothing at this URL');
  if (isCalendar(self.props)) return [base];
  let home = hrefOf(self.props['calendar-home-set'], base);
  const principal = hrefOf(self.props['current-user-principal'], base);
  if (!home && principal) {
    const found = multistatus(
      await request(account, principal, 'PROPFIND', { depth: '0' }, propfind('<c:calendar-home-set/>'), options),
      principal,
      'discovery',
    );
    home = found.map((r) => hrefOf(r.props['calendar-home-set'], principal)).find((h) => h) ?? null;
  }
  if (!home)
    throw new CalDavClientError('discovery: the URL is neither a calendar nor an account with a calendar home');
  const listed = multistatus(
    await request(
      account,
      home,
      'PROPFIND',
      { depth: '1' },
      propfind('<d:resourcetype/><c:supported-calendar-component-set/>'),
      options,
    ),
    home,
    'discovery',
  );
  return listed
    .filter((r) => isCalendar(r.props) && !sameResource(r.href, home))
    .filter((r) => {
      const set = r.props['supported-calendar-component-set'] as { comp?: unknown[] } | undefined;
      // Component names are attributes (ignored by the parser): a set is read as allowing VEVENT unless empty.
      return set === undefined || typeof set !== 'object' || (set.comp?.length ?? 1) > 0;
    })
    .map((r) => r.href);
}

/** The calendar objects of a collection and their ETags (href -> ETag). */
export async function objectEtags(
  account: CalDavAccount,
  calendar: URL,
  options: ClientOptions,
): Promise<Map<string, string>> {
  const listed = multistatus(
    await request(account, calendar, 'PROPFIND', { depth: '1' }, propfind('<d:getetag/><d:resourcetype/>'), options),
    calendar,
    'listing the calendar',
  );
  const out = new Map<string, string>();
  for (const r of listed) {
    if (sameResource(r.href, calendar)) continue;
    const type = r.props.resourcetype;
    if (typeof type === 'object' && type !== null && 'collection' in type) continue;
    const etag = typeof r.props.getetag === 'string' ? r.props.getetag : null;
    if (etag) out.set(r.href.href, etag);
  }
  return out;
}

/** The objects (href -> ETag and iCalendar text) of `hrefs` in a collection, by calendar-multiget in batches. */
export async function fetchObjects(
  account: CalDavAccount,
  calendar: URL,
  hrefs: string[],
  options: ClientOptions,
): Promise<Map<string, { etag: string; data: string }>> {
  const out = new Map<string, { etag: string; data: string }>();
  for (let i = 0; i < hrefs.length; i += 100) {
    const batch = hrefs.slice(i, i + 100);
    const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    const body = `<?xml version="1.0" encoding="utf-8"?><c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>${batch
      .map((h) => `<d:href>${escape(new URL(h).pathname)}</d:href>`)
      .join('')}</c:calendar-multiget>`;
    const found = multistatus(
      await request(account, calendar, 'REPORT', { depth: '1' }, body, options),
      calendar,
      'reading events',
    );
    for (const r of found) {
      const data = r.props['calendar-data'];
      const etag = r.props.getetag;
      if (typeof data === 'string' && typeof etag === 'string') out.set(r.href.href, { etag, data });
    }
  }
  return out;
}
