import { onFirstUse } from '../../../../lib/lazy';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const xmlbuilder = onFirstUse(() => require('xmlbuilder2') as typeof import('xmlbuilder2'));

/** The part of the DOM (xmlbuilder2's) a received document is read through. */
export interface El {
  nodeType: number;
  nodeName: string;
  localName?: string | null;
  namespaceURI?: string | null;
  textContent: string | null;
  childNodes: ArrayLike<El>;
  getAttribute(name: string): string | null;
}

/** Why bytes are not an XML document the suite reads (parsing stops there). */
export class NotXmlError extends Error {}

/**
 * The root element of an XML text. A document type declaration is refused outright (no e-invoice syntax has one,
 * and entities are how XML bombs and external reads come in); so is anything the parser cannot read.
 */
export function parseXml(xml: string): El {
  const text = xml.replace(/^\uFEFF/, '');
  if (/<!DOCTYPE/i.test(text)) throw new NotXmlError('a document type declaration (DOCTYPE) is not accepted');
  if (!/^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*</.test(text)) throw new NotXmlError('not an XML document');
  try {
    const root = xmlbuilder().create(text).root().node as unknown as El;
    if (!root || root.nodeType !== 1) throw new NotXmlError('no root element');
    return root;
  } catch (err) {
    if (err instanceof NotXmlError) throw err;
    throw new NotXmlError(`not well-formed XML: ${(err as Error).message.split('\n')[0].slice(0, 200)}`);
  }
}

/** The element's name without its prefix: documents choose their own prefixes. */
export const localName = (el: El): string => el.localName ?? el.nodeName.replace(/^.*:/, '');

/** Child elements named `name` (local name, any prefix). */
export const kids = (el: El | undefined, name: string): El[] =>
  el ? Array.from(el.childNodes).filter((n) => n.nodeType === 1 && localName(n) === name) : [];

/** Elements reached by a path of local names (`a/b/c`). */
export const path = (el: El | undefined, p: string): El[] =>
  p.split('/').reduce<El[]>((acc, name) => acc.flatMap((e) => kids(e, name)), el ? [el] : []);

export const one = (el: El | undefined, p: string): El | undefined => path(el, p)[0];

/** The trimmed text at a path, or null when absent or empty. */
export const text = (el: El | undefined, p: string): string | null => {
  const t = one(el, p)?.textContent?.trim();
  return t ? t : null;
};

export const attr = (el: El | undefined, name: string): string | null => el?.getAttribute(name)?.trim() || null;
