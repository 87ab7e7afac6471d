import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { badRequest } from '../../../lib/errors';

/**
 * The XML of WebDAV bodies (RFC 4918 uses XML namespaces throughout): a request body parsed into namespaced
 * elements, and elements written back (dead property values are kept as the XML the client sent). fast-xml-parser
 * checks well-formedness and splits the document; namespaces, entities and character references are resolved
 * here, strictly: an unbound prefix, an empty prefixed namespace, a DOCTYPE (entity expansion) or an undefined
 * entity is 400 `xml_invalid`, never a guess.
 */

export const DAV_NS = 'DAV:';

export interface XmlAttribute {
  ns: string;
  name: string;
  value: string;
}

export interface XmlElement {
  /** Namespace URI ('' when none). */
  ns: string;
  name: string;
  attrs: XmlAttribute[];
  /** Elements and text, in document order. */
  children: (XmlElement | string)[];
}

const invalid = (detail: string) => badRequest('xml_invalid', `The request body is not valid XML: ${detail}`);

type Ordered = Record<string, unknown>;
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  cdataPropName: '#cdata',
  commentPropName: '#comment',
});

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Entity and character references of XML text decoded; any other entity is refused. */
export function decodeText(text: string): string {
  return text.replace(/&([^;&\s]*);?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) throw invalid(`a bare "&" in text`);
    if (ref in PREDEFINED) return PREDEFINED[ref];
    const code = /^#x([0-9a-fA-F]+)$/.exec(ref)?.[1] ?? /^#([0-9]+)$/.exec(ref)?.[1];
    if (code !== undefined) {
      const point = ref.startsWith('#x') ? parseInt(code, 16) : parseInt(code, 10);
      if (!isXmlChar(point)) throw invalid(`&${ref}; is not an XML character`);
      return String.fromCodePoint(point);
    }
    throw invalid(`undefined entity &${ref};`);
  });
}

const isXmlChar = (c: number) =>
  c === 0x9 ||
  c === 0xa ||
  c === 0xd ||
  (c >= 0x20 && c <= 0xd7ff) ||
  (c >= 0xe000 && c <= 0xfffd) ||
  (c >= 0x10000 && c <= 0x10ffff);

/** Parses a request body into its root element (400 `xml_invalid` when it is not namespace-well-formed XML). */
export function parseXml(text: string): XmlElement {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw invalid('document type declarations are not accepted');
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw invalid(`${valid.err.msg} (line ${valid.err.line})`);
  const nodes = parser.parse(text) as Ordered[];
  const roots = nodes.filter((node) => elementName(node) !== undefined);
  if (roots.length !== 1) throw invalid('one root element is required');
  if (nodes.some((node) => '#text' in node && String(node['#text']).trim() !== ''))
    throw invalid('text outside the root element');
  return toElement(roots[0], new Map([['xml', 'http://www.w3.org/XML/1998/namespace']]));
}

const elementName = (node: Ordered) =>
  Object.keys(node).find((k) => k !== ':@' && k !== '#text' && k !== '#cdata' && k !== '#comment');

function splitQName(qname: string): [prefix: string, local: string] {
  const at = qname.indexOf(':');
  if (at < 0) return ['', qname];
  const prefix = qname.slice(0, at);
  const local = qname.slice(at + 1);
  if (!prefix || !local || local.includes(':')) throw invalid(`"${qname}" is not a qualified name`);
  return [prefix, local];
}

function toElement(node: Ordered, outer: Map<string, string>): XmlElement {
  const qname = elementName(node)!;
  const rawAttrs = (node[':@'] ?? {}) as Record<string, string>;
  const scope = new Map(outer);
  for (const [key, value] of Object.entries(rawAttrs)) {
    const uri = decodeText(String(value));
    if (key === 'xmlns') scope.set('', uri);
    else if (key.startsWith('xmlns:')) {
      if (!uri) throw invalid(`the prefix ${key.slice(6)} is bound to an empty namespace`);
      scope.set(key.slice(6), uri);
    }
  }
  const resolve = (prefix: string, forAttribute: boolean) => {
    if (!prefix) return forAttribute ? '' : (scope.get('') ?? '');
    const uri = scope.get(prefix);
    if (uri === undefined) throw invalid(`the prefix "${prefix}" is not declared`);
    return uri;
  };
  const [prefix, name] = splitQName(qname);
  const attrs: XmlAttribute[] = [];
  for (const [key, value] of Object.entries(rawAttrs)) {
    if (key === 'xmlns' || key.startsWith('xmlns:')) continue;
    const [p, local] = splitQName(key);
    attrs.push({ ns: resolve(p, true), name: local, value: decodeText(String(value)) });
  }
  const children: (XmlElement | string)[] = [];
  for (const child of (node[qname] ?? []) as Ordered[]) {
    if ('#text' in child) children.push(decodeText(String(child['#text'])));
    else if ('#cdata' in child)
      children.push(((child['#cdata'] ?? []) as Ordered[]).map((c) => String(c['#text'] ?? '')).join(''));
    else if ('#comment' in child) continue;
    else if (elementName(child) !== undefined) children.push(toElement(child, scope));
  }
  return { ns: resolve(prefix, false), name, attrs, children };
}

/** The child elements (text and comments left out). */
export const elementsOf = (element: XmlElement): XmlElement[] =>
  element.children.filter((c): c is XmlElement => typeof c !== 'string');

/** The first child element of this namespace and name. */
export const childOf = (element: XmlElement, ns: string, name: string): XmlElement | undefined =>
  elementsOf(element).find((c) => c.ns === ns && c.name === name);

export const is = (element: XmlElement, ns: string, name: string) => element.ns === ns && element.name === name;

/** Text escaped for element content or an attribute value. */
export const escapeXml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r/g, '&#13;');

/**
 * An element as XML that stands alone: every namespace it and its descendants use declared on it (prefixes
 * n0, n1 ...; the XML namespace keeps `xml`), so it can be written inside any document.
 */
export function serializeElement(element: XmlElement): string {
  const prefixes = new Map<string, string>();
  const prefixOf = (ns: string) => {
    if (ns === 'http://www.w3.org/XML/1998/namespace') return 'xml';
    let prefix = prefixes.get(ns);
    if (prefix === undefined) prefixes.set(ns, (prefix = `n${prefixes.size}`));
    return prefix;
  };
  const write = (el: XmlElement): string => {
    const tag = el.ns ? `${prefixOf(el.ns)}:${el.name}` : el.name;
    const attrs = el.attrs.map((a) => ` ${a.ns ? `${prefixOf(a.ns)}:` : ''}${a.name}="${escapeXml(a.value)}"`).join('');
    const inner = el.children.map((c) => (typeof c === 'string' ? escapeXml(c) : write(c))).join('');
    return inner ? `<${tag}${attrs}>${inner}</${tag}>` : `<${tag}${attrs}/>`;
  };
  const body = write(element);
  const declarations = [...prefixes].map(([ns, p]) => ` xmlns:${p}="${escapeXml(ns)}"`).join('');
  // An element without a namespace written inside a document with a default namespace must reset it.
  const reset = element.ns ? '' : ' xmlns=""';
  const at = body.search(/[ />]/);
  return `${body.slice(0, at)}${declarations}${reset}${body.slice(at)}`;
}
