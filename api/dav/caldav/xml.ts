import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { onFirstUse } from '../../../lib/lazy';

/** xmlbuilder2 and its DOM (~1 MB, 130 modules): loaded by the first CalDAV answer, not by every dyno's start. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const xmlbuilder = onFirstUse(() => require('xmlbuilder2') as typeof import('xmlbuilder2'));

/** The XML of WebDAV/CalDAV requests and answers (RFC 4918, RFC 4791), with namespaces resolved. */

export const DAV = 'DAV:';
export const CALDAV = 'urn:ietf:params:xml:ns:caldav';
export const CS = 'http://calendarserver.org/ns/';

/** An element: its namespace URI, local name, attributes (by local name), children and text. */
export interface XmlElement {
  ns: string;
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** Why a request body is not XML this server reads (400). */
export class BadXml extends Error {}

type OrderedNode = Record<string, unknown>;
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: true,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: false,
});

/**
 * The root element of a request body, namespaces resolved. Refuses malformed XML and any DOCTYPE (no entity
 * expansion: a "billion laughs" body is refused before it is parsed).
 */
export function parseXml(body: string): XmlElement {
  if (/<!DOCTYPE|<!ENTITY/i.test(body)) throw new BadXml('DOCTYPE and entities are not accepted');
  const valid = XMLValidator.validate(body);
  if (valid !== true) throw new BadXml(`malformed XML: ${valid.err.msg} (line ${valid.err.line})`);
  const nodes = parser.parse(body) as OrderedNode[];
  const roots = nodes.flatMap((n) => toElements(n, {}));
  if (roots.length !== 1) throw new BadXml('one root element expected');
  return roots[0];
}

function toElements(node: OrderedNode, scope: Record<string, string>): XmlElement[] {
  const attrs = (node[':@'] ?? {}) as Record<string, string>;
  const out: XmlElement[] = [];
  for (const [qname, value] of Object.entries(node)) {
    if (qname === ':@' || qname === '#text' || qname.startsWith('?')) continue;
    const inner: Record<string, string> = { ...scope };
    for (const [k, v] of Object.entries(attrs)) {
      if (k === 'xmlns') inner[''] = v;
      else if (k.startsWith('xmlns:')) inner[k.slice(6)] = v;
    }
    const [prefix, local] = qname.includes(':') ? qname.split(':', 2) : ['', qname];
    const ns = inner[prefix];
    if (ns === undefined && prefix) throw new BadXml(`undeclared namespace prefix ${prefix}`);
    const children = (value as OrderedNode[]).flatMap((c) => toElements(c, inner));
    const text = (value as OrderedNode[])
      .map((c) => (typeof c['#text'] === 'string' || typeof c['#text'] === 'number' ? String(c['#text']) : ''))
      .join('');
    const own: Record<string, string> = {};
    for (const [k, v] of Object.entries(attrs))
      if (k !== 'xmlns' && !k.startsWith('xmlns:')) own[k.split(':').pop()!] = v;
    out.push({ ns: ns ?? '', name: local, attrs: own, children, text });
  }
  return out;
}

export const is = (e: XmlElement, ns: string, name: string): boolean => e.ns === ns && e.name === name;
export const child = (e: XmlElement | undefined, ns: string, name: string): XmlElement | undefined =>
  e?.children.find((c) => is(c, ns, name));
export const childrenOf = (e: XmlElement | undefined, ns: string, name: string): XmlElement[] =>
  e?.children.filter((c) => is(c, ns, name)) ?? [];

/** A property name asked for (in a PROPFIND's or REPORT's <prop>). */
export interface PropName {
  ns: string;
  name: string;
}

/** The value of a property: text, an element tree ({ns, name, children}), a list of them, or raw text to escape. */
export type PropValue = string | XmlNode | XmlNode[];
export interface XmlNode {
  ns: string;
  name: string;
  attrs?: Record<string, string>;
  children?: PropValue;
}

/** One <response> of a multistatus: found properties (200), missing ones (404), or a status for the href alone. */
export interface DavResponse {
  href: string;
  found?: [PropName, PropValue][];
  missing?: PropName[];
  status?: number;
}

const PREFIX: Record<string, string> = { [DAV]: 'd', [CALDAV]: 'cal', [CS]: 'cs' };
const REASON: Record<number, string> = { 200: 'OK', 404: 'Not Found', 403: 'Forbidden' };

type Builder = ReturnType<typeof import('xmlbuilder2').create>;

function qname(ns: string, name: string, extra: Map<string, string>): string {
  const known = PREFIX[ns];
  if (known) return `${known}:${name}`;
  if (!ns) return name;
  let p = extra.get(ns);
  if (!p) extra.set(ns, (p = `x${extra.size}`));
  return `${p}:${name}`;
}

function put(parent: Builder, value: PropValue, extra: Map<string, string>): void {
  if (typeof value === 'string') {
    parent.txt(value);
    return;
  }
  for (const node of Array.isArray(value) ? value : [value]) {
    const el = parent.ele(qname(node.ns, node.name, extra));
    for (const [k, v] of Object.entries(node.attrs ?? {})) el.att(k, v);
    if (node.children !== undefined) put(el, node.children, extra);
  }
}

/** A 207 Multi-Status body. */
export function multistatus(responses: DavResponse[], syncToken?: string): string {
  const extra = new Map<string, string>();
  const doc = xmlbuilder().create({ version: '1.0', encoding: 'utf-8' });
  const root = doc.ele(DAV, 'd:multistatus').att('xmlns:d', DAV).att('xmlns:cal', CALDAV).att('xmlns:cs', CS);
  for (const r of responses) {
    const resp = root.ele('d:response');
    resp.ele('d:href').txt(r.href);
    if (r.status) resp.ele('d:status').txt(`HTTP/1.1 ${r.status} ${REASON[r.status] ?? ''}`.trim());
    if (r.found?.length) {
      const ps = resp.ele('d:propstat');
      const prop = ps.ele('d:prop');
      for (const [n, v] of r.found) put(prop.ele(qname(n.ns, n.name, extra)), v, extra);
      ps.ele('d:status').txt('HTTP/1.1 200 OK');
    }
    if (r.missing?.length) {
      const ps = resp.ele('d:propstat');
      const prop = ps.ele('d:prop');
      for (const n of r.missing) prop.ele(qname(n.ns, n.name, extra));
      ps.ele('d:status').txt('HTTP/1.1 404 Not Found');
    }
  }
  if (syncToken) root.ele('d:sync-token').txt(syncToken);
  for (const [ns, p] of extra) root.att(`xmlns:${p}`, ns);
  return doc.end({ prettyPrint: false });
}

/** A DAV error body (RFC 4918 16): the precondition or postcondition that failed, with a human-readable reason. */
export function davError(ns: string, condition: string, message: string): string {
  const extra = new Map<string, string>();
  const doc = xmlbuilder().create({ version: '1.0', encoding: 'utf-8' });
  const root = doc.ele(DAV, 'd:error').att('xmlns:d', DAV).att('xmlns:cal', CALDAV);
  root.ele(qname(ns, condition, extra));
  root.ele('d:responsedescription').txt(message);
  return doc.end({ prettyPrint: false });
}
