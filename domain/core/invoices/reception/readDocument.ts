import { AppError } from '../../../../lib/errors';
import type { ReceivedDocument } from './document';
import { en16931Violations, type RuleViolation } from './en16931';
import { extractFacturX, NoEmbeddedInvoiceError } from './extractFacturX';
import { CII_NAMESPACE, parseCii } from './parseCii';
import { parseUbl, ublSyntaxViolations } from './parseUbl';
import { localName, NotXmlError, parseXml } from './xml';

/** How a supplier invoice came: a Factur-X / ZUGFeRD PDF, a CII XML or a UBL XML. */
export const receivedFormats = ['factur-x', 'cii', 'ubl'] as const;
export type ReceivedFormat = (typeof receivedFormats)[number];

export interface ReadDocument {
  format: ReceivedFormat;
  /** application/pdf or application/xml: what the original bytes are. */
  contentType: string;
  document: ReceivedDocument;
}

const unprocessable = (code: string, detail: string, violations: RuleViolation[] = []) =>
  new AppError(
    422,
    code,
    detail,
    violations.map((r) => ({ field: r.rule, message: r.detail })),
  );

const PDF_MAGIC = '%PDF-';

/**
 * Reads the bytes of a received invoice: a PDF is a Factur-X whose embedded XML is read, otherwise the bytes are
 * an XML document (UTF-8), CII or UBL by its root element. The document is then held to the EN 16931 rules (and,
 * in UBL, to the syntax binding). Every refusal is a 422 naming what is wrong: `einvoice_no_xml` (a PDF without
 * invoice XML), `einvoice_not_xml` (neither PDF nor well-formed XML), `einvoice_not_invoice` (XML of another
 * kind), `einvoice_rules_failed` (the rules broken, one entry each in `errors`, the rule id as `field`).
 */
export async function readDocument(bytes: Uint8Array): Promise<ReadDocument> {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  let xmlBytes = bytes;
  let format: ReceivedFormat | null = null;
  if (head.includes(PDF_MAGIC) && head.indexOf(PDF_MAGIC) < 1024 && !head.trimStart().startsWith('<')) {
    try {
      xmlBytes = (await extractFacturX(bytes)).xml;
    } catch (err) {
      if (err instanceof NoEmbeddedInvoiceError) throw unprocessable('einvoice_no_xml', err.message);
      throw err;
    }
    format = 'factur-x';
  }
  let xml: string;
  try {
    xml = new TextDecoder('utf-8', { fatal: true }).decode(xmlBytes);
  } catch {
    throw unprocessable('einvoice_not_xml', 'the document is neither a PDF nor UTF-8 XML');
  }
  let root;
  try {
    root = parseXml(xml);
  } catch (err) {
    if (err instanceof NotXmlError) throw unprocessable('einvoice_not_xml', err.message);
    throw err;
  }
  const name = localName(root);
  let document: ReceivedDocument;
  const violations: RuleViolation[] = [];
  if (name === 'CrossIndustryInvoice' && root.namespaceURI === CII_NAMESPACE) {
    document = parseCii(root);
    format ??= 'cii';
  } else if ((name === 'Invoice' || name === 'CreditNote') && format === null) {
    for (const detail of ublSyntaxViolations(root))
      violations.push({ rule: detail.split(':')[0], detail: detail.slice(detail.indexOf(':') + 1).trim() });
    document = parseUbl(root);
    format = 'ubl';
  } else
    throw unprocessable(
      'einvoice_not_invoice',
      `the XML is not an invoice: root element ${name}${root.namespaceURI ? ` in ${root.namespaceURI}` : ''} is neither a CII CrossIndustryInvoice nor a UBL 2.1 Invoice or CreditNote`,
    );
  violations.push(...en16931Violations(document));
  if (violations.length)
    throw unprocessable(
      'einvoice_rules_failed',
      `the invoice breaks ${violations.length} EN 16931 rule(s): ${[...new Set(violations.map((r) => r.rule))].join(', ')}`,
      violations,
    );
  return { format, contentType: format === 'factur-x' ? 'application/pdf' : 'application/xml', document };
}
