import type { DavLockRow, DavNode } from '../store/dav';
import { DAV_NS, escapeXml } from './xml';
import { hrefOf, type DavPath } from './paths';
import { etagOf, isRoot } from './resolve';

/** The XML answers of WebDAV (RFC 4918 14): multistatus, propstat, lock discovery, errors. Pure functions. */

export const XML_HEADER = '<?xml version="1.0" encoding="utf-8"?>\n';

/** A property name: its namespace and local name. */
export interface PropName {
  ns: string;
  name: string;
}

/** The live properties this server computes (RFC 4918 15), all protected. */
export const LIVE_PROPERTIES = [
  'creationdate',
  'displayname',
  'getcontentlength',
  'getcontenttype',
  'getetag',
  'getlastmodified',
  'resourcetype',
  'supportedlock',
  'lockdiscovery',
] as const;

export const isLive = (p: PropName) => p.ns === DAV_NS && (LIVE_PROPERTIES as readonly string[]).includes(p.name);

const statusLine = (status: number) => `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Status'}`;
const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  423: 'Locked',
  424: 'Failed Dependency',
  507: 'Insufficient Storage',
};

/** An empty element of a property name, prefixed `d:` for DAV: and declaring its own namespace otherwise. */
export const emptyElement = (p: PropName) =>
  p.ns === DAV_NS ? `<d:${p.name}/>` : p.ns ? `<x:${p.name} xmlns:x="${escapeXml(p.ns)}"/>` : `<${p.name} xmlns=""/>`;

const element = (name: string, value: string) => `<d:${name}>${value}</d:${name}>`;

/** The activelock elements of locks, as lockdiscovery and a LOCK answer show them. */
export function activeLocks(locks: DavLockRow[], rootOf: (lock: DavLockRow) => string, now: Date): string {
  return locks
    .map(
      (lock) =>
        `<d:activelock><d:locktype><d:write/></d:locktype><d:lockscope><d:${lock.scope}/></d:lockscope><d:depth>${lock.depth === '0' ? '0' : 'infinity'}</d:depth>${lock.ownerXml ?? ''}<d:timeout>Second-${Math.max(0, Math.round((lock.expiresAt.getTime() - now.getTime()) / 1000))}</d:timeout><d:locktoken><d:href>${escapeXml(lock.token)}</d:href></d:locktoken><d:lockroot><d:href>${escapeXml(rootOf(lock))}</d:href></d:lockroot></d:activelock>`,
    )
    .join('');
}

export interface ResourceView {
  path: DavPath;
  node: DavNode;
  /** Dead properties: name and the stored element. */
  dead: (PropName & { value: string })[];
  /** Locks covering the resource. */
  locks: DavLockRow[];
  /** Href of a lock's root (its path). */
  lockRoot: (lock: DavLockRow) => string;
}

/** The value of a live property of a resource, as XML, or undefined when it has none (a folder's length). */
export function liveValue(name: string, view: ResourceView, now: Date): string | undefined {
  const { node } = view;
  const folder = node.kind === 'folder';
  switch (name) {
    case 'creationdate':
      return element(name, node.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z'));
    case 'displayname':
      return isRoot(node) ? undefined : element(name, escapeXml(node.name));
    case 'getcontentlength':
      return folder ? undefined : element(name, String(node.size));
    case 'getcontenttype':
      return folder ? undefined : element(name, escapeXml(node.contentType ?? 'application/octet-stream'));
    case 'getetag':
      return element(name, escapeXml(etagOf(node)));
    case 'getlastmodified':
      return element(name, node.updatedAt.toUTCString());
    case 'resourcetype':
      return folder ? '<d:resourcetype><d:collection/></d:resourcetype>' : '<d:resourcetype/>';
    case 'supportedlock':
      return `<d:supportedlock>${['exclusive', 'shared']
        .map(
          (s) => `<d:lockentry><d:lockscope><d:${s}/></d:lockscope><d:locktype><d:write/></d:locktype></d:lockentry>`,
        )
        .join('')}</d:supportedlock>`;
    case 'lockdiscovery':
      return `<d:lockdiscovery>${activeLocks(view.locks, view.lockRoot, now)}</d:lockdiscovery>`;
    default:
      return undefined;
  }
}

export type PropfindRequest = { kind: 'allprop' } | { kind: 'propname' } | { kind: 'prop'; props: PropName[] };

/** One `response` of a PROPFIND multistatus: the properties found (200) and those missing (404). */
export function propfindResponse(request: PropfindRequest, view: ResourceView, now: Date): string {
  const href = `<d:href>${escapeXml(hrefOf(view.path, view.node.kind === 'folder'))}</d:href>`;
  const found: string[] = [];
  const missing: string[] = [];
  if (request.kind === 'prop') {
    for (const p of request.props) {
      const dead = view.dead.find((d) => d.ns === p.ns && d.name === p.name);
      const value = p.ns === DAV_NS ? liveValue(p.name, view, now) : undefined;
      if (value !== undefined) found.push(value);
      else if (dead) found.push(dead.value);
      else missing.push(emptyElement(p));
    }
  } else {
    for (const name of LIVE_PROPERTIES) {
      const value = liveValue(name, view, now);
      if (value !== undefined) found.push(request.kind === 'propname' ? `<d:${name}/>` : value);
    }
    for (const d of view.dead) found.push(request.kind === 'propname' ? emptyElement(d) : d.value);
  }
  return `<d:response>${href}${propstat(found, 200)}${propstat(missing, 404)}</d:response>`;
}

const propstat = (props: string[], status: number) =>
  props.length
    ? `<d:propstat><d:prop>${props.join('')}</d:prop><d:status>${statusLine(status)}</d:status></d:propstat>`
    : '';

/** A PROPPATCH answer: each property with the status of its change (all 200, or the failures and 424). */
export function proppatchResponse(path: DavPath, collection: boolean, results: { prop: PropName; status: number }[]) {
  const byStatus = new Map<number, string[]>();
  for (const r of results) byStatus.set(r.status, [...(byStatus.get(r.status) ?? []), emptyElement(r.prop)]);
  return multistatus(
    `<d:response><d:href>${escapeXml(hrefOf(path, collection))}</d:href>${[...byStatus]
      .map(([status, props]) => propstat(props, status))
      .join('')}</d:response>`,
  );
}

/** A `response` with only a status (a member a DELETE, COPY or MOVE could not handle). */
export const statusResponse = (href: string, status: number) =>
  `<d:response><d:href>${escapeXml(href)}</d:href><d:status>${statusLine(status)}</d:status></d:response>`;

export const multistatus = (responses: string) =>
  `${XML_HEADER}<d:multistatus xmlns:d="DAV:">${responses}</d:multistatus>`;

/**
 * An error body (RFC 4918 16): the precondition or postcondition element when there is one, and the
 * problem's code and message in this server's namespace.
 */
export const errorBody = (code: string, message: string, condition?: string) =>
  `${XML_HEADER}<d:error xmlns:d="DAV:" xmlns:s="urn:platform-suite:problem">${condition ?? ''}<s:code>${escapeXml(code)}</s:code><s:message>${escapeXml(message)}</s:message></d:error>`;
