import type { PDFDict, PDFObject } from 'pdf-lib';
import { onFirstUse } from '../../../../lib/lazy';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const pdfLib = onFirstUse(() => require('pdf-lib') as typeof import('pdf-lib'));

/** Names the hybrid-invoice standards give the embedded XML (Factur-X, ZUGFeRD 1/2, XRechnung), lower-cased. */
export const EMBEDDED_INVOICE_NAMES = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml', 'zugferd_invoice.xml'];

/** Why a PDF yields no invoice XML. */
export class NoEmbeddedInvoiceError extends Error {}

/**
 * The invoice XML a Factur-X / ZUGFeRD PDF carries: the embedded file of the catalog's /AF list or its
 * EmbeddedFiles name tree named factur-x.xml (or a ZUGFeRD / XRechnung name), its stream decoded. Read with
 * pdf-lib's object model, without rendering anything. A PDF that does not parse, is encrypted or embeds no such
 * file is refused with the reason.
 */
export async function extractFacturX(bytes: Uint8Array): Promise<{ fileName: string; xml: Uint8Array }> {
  try {
    return await embeddedInvoiceOf(bytes);
  } catch (err) {
    if (err instanceof NoEmbeddedInvoiceError) throw err;
    // Hostile or damaged object graphs (wrong types, cycles) are refused, not a server error.
    throw new NoEmbeddedInvoiceError(`not a readable PDF: ${(err as Error).message.split('\n')[0].slice(0, 200)}`);
  }
}

async function embeddedInvoiceOf(bytes: Uint8Array): Promise<{ fileName: string; xml: Uint8Array }> {
  const { PDFDocument, PDFArray, PDFDict, PDFName, PDFString, PDFHexString, PDFRawStream, decodePDFRawStream } =
    pdfLib();
  let pdf: import('pdf-lib').PDFDocument;
  try {
    pdf = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: false });
  } catch (err) {
    if ((err as Error).name === 'EncryptedPDFError') throw new NoEmbeddedInvoiceError('the PDF is encrypted');
    throw new NoEmbeddedInvoiceError(`not a readable PDF: ${(err as Error).message.split('\n')[0].slice(0, 200)}`);
  }
  if (pdf.isEncrypted) throw new NoEmbeddedInvoiceError('the PDF is encrypted');
  const ctx = pdf.context;
  const deref = (o: PDFObject | undefined) => (o ? ctx.lookup(o) : undefined);
  const dict = (o: PDFObject | undefined) => {
    const d = deref(o);
    return d instanceof PDFDict ? d : undefined;
  };
  const str = (o: PDFObject | undefined) => {
    const d = deref(o);
    return d instanceof PDFString || d instanceof PDFHexString ? d.decodeText() : undefined;
  };

  const specs: PDFDict[] = [];
  // A damaged PDF may load without a catalog, or with objects of the wrong type where dictionaries belong.
  if (!(pdf.catalog instanceof PDFDict)) throw new NoEmbeddedInvoiceError('not a readable PDF: no document catalog');
  const af = deref(pdf.catalog.get(PDFName.of('AF')));
  if (af instanceof PDFArray) for (const o of af.asArray()) if (dict(o)) specs.push(dict(o)!);
  // The EmbeddedFiles name tree: [name spec name spec ...] in /Names, sub-trees in /Kids (bounded walk).
  const tree = dict(dict(pdf.catalog.get(PDFName.of('Names')))?.get(PDFName.of('EmbeddedFiles')));
  const queue = tree ? [tree] : [];
  for (let visited = 0; queue.length && visited < 1000; visited++) {
    const node = queue.shift()!;
    const names = deref(node.get(PDFName.of('Names')));
    if (names instanceof PDFArray)
      for (let i = 1; i < names.size(); i += 2) if (dict(names.get(i))) specs.push(dict(names.get(i))!);
    const kids = deref(node.get(PDFName.of('Kids')));
    if (kids instanceof PDFArray) for (const k of kids.asArray()) if (dict(k)) queue.push(dict(k)!);
  }

  for (const spec of specs) {
    const fileName = str(spec.get(PDFName.of('UF'))) ?? str(spec.get(PDFName.of('F'))) ?? '';
    if (!EMBEDDED_INVOICE_NAMES.includes(fileName.trim().toLowerCase())) continue;
    const ef = dict(spec.get(PDFName.of('EF')));
    const stream = deref(ef?.get(PDFName.of('F')) ?? ef?.get(PDFName.of('UF')));
    if (!(stream instanceof PDFRawStream)) continue;
    try {
      return { fileName, xml: decodePDFRawStream(stream).decode() };
    } catch (err) {
      throw new NoEmbeddedInvoiceError(`the embedded ${fileName} cannot be decoded: ${(err as Error).message}`);
    }
  }
  throw new NoEmbeddedInvoiceError(
    'the PDF embeds no invoice XML (factur-x.xml): a Factur-X or ZUGFeRD PDF is expected, not a plain PDF',
  );
}
