import { XMLParser } from 'fast-xml-parser';
import { validateXML } from 'xmllint-wasm';

/** fast-xml-parser's ordered tree: one key per node (the element's name, or #text), attributes under ':@'. */
type OrderedNode = Record<string, OrderedNode[] | string>;
const parser = new XMLParser({ preserveOrder: true, ignoreAttributes: true, trimValues: false, parseTagValue: false });

/**
 * An XML document as libxml2 reads it: its well-formedness errors (an undefined entity such as `&nbsp;` is one),
 * and the text of each leaf element with its path. libxml2 resolves every entity and character reference and
 * writes the canonical form (C14N), where only `&amp;`, `&lt;`, `&gt;` (and `&#xD;`) remain; fast-xml-parser
 * reads that form into elements. (xmlbuilder2's own parser is not used here: it decodes `&amp;#233;` to `é`.)
 */
export async function readXml(xml: string): Promise<{ errors: string[]; texts: [path: string, text: string][] }> {
  const result = await validateXML({ xml: [{ fileName: 'document.xml', contents: xml }], normalization: 'c14n' });
  if (!result.valid) return { errors: result.errors.map((e) => e.message), texts: [] };
  const texts: [string, string][] = [];
  const walk = (nodes: OrderedNode[], path: string) => {
    const elements = nodes.flatMap(
      (node) => Object.entries(node).filter(([name]) => name !== '#text' && name !== ':@') as [string, OrderedNode[]][],
    );
    if (!elements.length && path) texts.push([path, nodes.map((node) => node['#text'] ?? '').join('')]);
    for (const [name, children] of elements) walk(children, path ? `${path}/${name}` : name);
  };
  walk(parser.parse(result.normalized) as OrderedNode[], '');
  return { errors: [], texts };
}

/** The texts of the leaf elements whose path ends with `suffix`, in document order. */
export const textsAt = (texts: [string, string][], suffix: string): string[] =>
  texts.filter(([path]) => path.endsWith(suffix)).map(([, text]) => text);
