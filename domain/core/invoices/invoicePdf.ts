import type { PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import { onFirstUse } from '../../../lib/lazy';
import type { Invoice, InvoiceLine, InvoiceParty } from '../../../entities/core/invoice';
import { decimal } from './amounts';
import { exchangeOf, formatMoney, vatInAccounting } from './currencies';
import { escapeXml } from './escapeXml';
import { FACTURX_GUIDELINE } from './facturx';

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const pdfLib = onFirstUse(() => require('pdf-lib') as typeof import('pdf-lib'));

/**
 * The readable PDF of an issued document with its Factur-X XML embedded the Factur-X way: an embedded file
 * named factur-x.xml (text/xml, AFRelationship Alternative, listed in the catalog's /AF) and XMP metadata
 * declaring the Factur-X document (fx:DocumentType INVOICE, DocumentFileName, Version 1.0, ConformanceLevel
 * EN 16931) and PDF/A-3B. It uses the standard Helvetica font, which a PDF/A-3 validator would want embedded:
 * readers and e-invoicing platforms that extract the XML take it as it is.
 */
export const A4: [number, number] = [595.28, 841.89];
export const MARGIN = 48;
/** An amount in minor units of `currency` as printed: "1 234,56 €", "1 234,56 USD", "12 346 JPY". */
export const money = (minor: number, currency: string) => formatMoney(minor, currency);
export const frDate = (date: string | null | undefined) => (date ? date.split('-').reverse().join('/') : '');
export const percent = (bp: number) =>
  `${decimal(bp)
    .replace(/\.?0+$/, '')
    .replace('.', ',')} %`;

export class Writer {
  page!: PDFPage;
  y = 0;
  private readonly charset: Set<number>;

  constructor(
    private readonly pdf: PDFDocument,
    readonly font: PDFFont,
    readonly bold: PDFFont,
  ) {
    this.charset = new Set(font.getCharacterSet());
    this.newPage();
  }

  newPage() {
    this.page = this.pdf.addPage(A4);
    this.y = A4[1] - MARGIN;
  }

  /** Text the standard font can draw: characters outside WinAnsi become '?'. */
  clean(text: string): string {
    return [...text.replace(/[\r\n\t]+/g, ' ')].map((c) => (this.charset.has(c.codePointAt(0)!) ? c : '?')).join('');
  }

  /** Breaks text into lines of at most `width` points. */
  wrap(text: string, width: number, size: number, font = this.font): string[] {
    const lines: string[] = [];
    let current = '';
    for (const word of this.clean(text).split(' ')) {
      const next = current ? `${current} ${word}` : word;
      if (font.widthOfTextAtSize(next, size) <= width || !current) current = next;
      else {
        lines.push(current);
        current = word;
      }
    }
    if (current) lines.push(current);
    return lines;
  }

  text(text: string, x: number, y: number, size = 9, font = this.font, align: 'left' | 'right' = 'left') {
    const clean = this.clean(text);
    const at = align === 'right' ? x - font.widthOfTextAtSize(clean, size) : x;
    this.page.drawText(clean, { x: at, y, size, font, color: pdfLib().rgb(0.1, 0.1, 0.1) });
  }

  /** Moves down, starting a new page when the block does not fit. */
  need(height: number) {
    if (this.y - height < MARGIN) this.newPage();
  }

  rule() {
    this.page.drawLine({
      start: { x: MARGIN, y: this.y },
      end: { x: A4[0] - MARGIN, y: this.y },
      thickness: 0.5,
      color: pdfLib().rgb(0.6, 0.6, 0.6),
    });
  }
}

export function partyLines(p: InvoiceParty, seller: boolean): string[] {
  const a = p.address;
  return [
    a?.line1,
    a?.line2,
    a && [a.postalCode, a.city].filter(Boolean).join(' '),
    a?.country,
    p.legalId && `SIREN ${p.legalId}`,
    seller && p.siret && `SIRET ${p.siret}`,
    p.vatNumber && `TVA ${p.vatNumber}`,
    p.email,
  ].filter((l): l is string => !!l);
}

/** The seller's details under its name on the left, the customer's block on the right; `gap` points below. */
export function drawParties(w: Writer, seller: InvoiceParty, buyer: InvoiceParty, gap: number): void {
  const sellerLines = partyLines(seller, true);
  sellerLines.forEach((l, i) => w.text(l, MARGIN, w.y - i * 12));
  w.y -= Math.max(sellerLines.length * 12, 40) + 14;
  w.text('Client', 320, w.y, 9, w.bold);
  w.text(buyer.name, 320, w.y - 13, 10, w.bold);
  const buyerLines = partyLines(buyer, false);
  buyerLines.forEach((l, i) => w.text(l, 320, w.y - 26 - i * 12));
  w.y -= 26 + buyerLines.length * 12 + gap;
}

/** The line table of a document (invoice, credit note, quote): header repeated on each new page, one row per line. */
export function drawLineTable(w: Writer, lines: readonly InvoiceLine[], currency: string): void {
  const right = A4[0] - MARGIN;
  const cols = { desc: MARGIN, qty: 330, price: 395, vat: 440, discount: 490, total: right };
  const header = () => {
    w.need(30);
    w.text('Désignation', cols.desc, w.y, 8, w.bold);
    w.text('Qté', cols.qty, w.y, 8, w.bold, 'right');
    w.text('PU HT', cols.price, w.y, 8, w.bold, 'right');
    w.text('TVA', cols.vat, w.y, 8, w.bold, 'right');
    w.text('Remise', cols.discount, w.y, 8, w.bold, 'right');
    w.text('Total HT', cols.total, w.y, 8, w.bold, 'right');
    w.y -= 5;
    w.rule();
    w.y -= 12;
  };
  header();
  for (const line of lines) {
    const desc = w.wrap(line.description, cols.qty - cols.desc - 40, 9);
    if (w.y - desc.length * 11 < MARGIN) {
      w.newPage();
      header();
    }
    w.text(
      decimal(line.quantityMilli, 3)
        .replace(/\.?0+$/, '')
        .replace('.', ','),
      cols.qty,
      w.y,
      9,
      w.font,
      'right',
    );
    w.text(money(line.unitPriceCents, currency), cols.price, w.y, 9, w.font, 'right');
    w.text(line.vatCategory === 'S' ? percent(line.vatRateBp) : line.vatCategory, cols.vat, w.y, 9, w.font, 'right');
    w.text(
      line.discountCents
        ? line.discountPercentBp !== null
          ? percent(line.discountPercentBp)
          : money(line.discountCents, currency)
        : '',
      cols.discount,
      w.y,
      9,
      w.font,
      'right',
    );
    w.text(money(line.netCents, currency), cols.total, w.y, 9, w.font, 'right');
    desc.forEach((l, i) => w.text(l, cols.desc, w.y - i * 11));
    w.y -= desc.length * 11 + 4;
  }
}

const xmp = (invoice: Invoice, title: string) => `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"><pdfaid:part>3</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance></rdf:Description>
  <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(title)}</rdf:li></rdf:Alt></dc:title></rdf:Description>
  <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"><xmp:CreateDate>${invoice.issuedAt!.toISOString()}</xmp:CreateDate></rdf:Description>
  <rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
   <pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">
    <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
    <pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>
    <pdfaSchema:prefix>fx</pdfaSchema:prefix>
    <pdfaSchema:property><rdf:Seq>
     <rdf:li rdf:parseType="Resource"><pdfaProperty:name>DocumentFileName</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>The name of the embedded XML document</pdfaProperty:description></rdf:li>
     <rdf:li rdf:parseType="Resource"><pdfaProperty:name>DocumentType</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>The type of the hybrid document in capital letters, e.g. INVOICE or ORDER</pdfaProperty:description></rdf:li>
     <rdf:li rdf:parseType="Resource"><pdfaProperty:name>Version</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>The actual version of the standard applying to the embedded XML document</pdfaProperty:description></rdf:li>
     <rdf:li rdf:parseType="Resource"><pdfaProperty:name>ConformanceLevel</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>The conformance level of the embedded XML document</pdfaProperty:description></rdf:li>
    </rdf:Seq></pdfaSchema:property>
   </rdf:li></rdf:Bag></pdfaExtension:schemas>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:fx="urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#"><fx:DocumentType>INVOICE</fx:DocumentType><fx:DocumentFileName>factur-x.xml</fx:DocumentFileName><fx:Version>1.0</fx:Version><fx:ConformanceLevel>EN 16931</fx:ConformanceLevel></rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;

/** The PDF of an issued document (`credited`: the invoice a credit note corrects) with `xml` embedded as factur-x.xml. */
export async function renderInvoicePdf(
  invoice: Invoice,
  xml: string,
  credited?: Pick<Invoice, 'number' | 'issueDate'>,
): Promise<Uint8Array> {
  const seller = invoice.seller!;
  const buyer = invoice.buyer!;
  const isCredit = invoice.kind === 'credit_note';
  const title = `${isCredit ? 'Avoir' : 'Facture'} ${invoice.number}`;
  const { AFRelationship, PDFDocument, PDFName, StandardFonts } = pdfLib();
  const pdf = await PDFDocument.create();
  const at = invoice.issuedAt!;
  pdf.setTitle(title, { showInWindowTitleBar: true });
  pdf.setAuthor(seller.name);
  pdf.setSubject(`${title}, ${seller.name} → ${buyer.name}`);
  pdf.setKeywords(['Factur-X', 'EN 16931', FACTURX_GUIDELINE]);
  pdf.setCreator('Platform Suite invoicing');
  pdf.setProducer('pdf-lib');
  pdf.setCreationDate(at);
  pdf.setModificationDate(at);
  await pdf.attach(new TextEncoder().encode(xml), 'factur-x.xml', {
    mimeType: 'text/xml',
    description: 'Factur-X invoice (CII D16B, EN 16931)',
    creationDate: at,
    modificationDate: at,
    afRelationship: AFRelationship.Alternative,
  });
  pdf.catalog.set(
    PDFName.of('Metadata'),
    pdf.context.register(pdf.context.stream(xmp(invoice, title), { Type: 'Metadata', Subtype: 'XML' })),
  );

  const w = new Writer(
    pdf,
    await pdf.embedFont(StandardFonts.Helvetica),
    await pdf.embedFont(StandardFonts.HelveticaBold),
  );
  const right = A4[0] - MARGIN;
  w.text(seller.name, MARGIN, w.y, 14, w.bold);
  w.text(isCredit ? 'AVOIR' : 'FACTURE', right, w.y, 16, w.bold, 'right');
  w.y -= 18;
  w.text(`N° ${invoice.number}`, right, w.y, 10, w.bold, 'right');
  w.text(`Date : ${frDate(invoice.issueDate)}`, right, w.y - 13, 9, w.font, 'right');
  if (!isCredit) w.text(`Échéance : ${frDate(invoice.dueDate)}`, right, w.y - 26, 9, w.font, 'right');
  if (credited)
    w.text(
      `Facture d'origine : ${credited.number} du ${frDate(credited.issueDate)}`,
      right,
      w.y - 26,
      9,
      w.font,
      'right',
    );
  drawParties(w, seller, buyer, 10);
  for (const [label, value] of [
    ['Référence acheteur', invoice.buyerReference],
    ['Bon de commande', invoice.orderReference],
    ['Motif', invoice.creditReason],
  ] as const) {
    if (!value) continue;
    w.text(`${label} : ${value}`, MARGIN, w.y);
    w.y -= 12;
  }
  w.y -= 8;

  drawLineTable(w, invoice.lines, invoice.currency);
  w.rule();
  w.y -= 16;

  w.need(40 + invoice.vatBreakdown.length * 12 + 50);
  w.text('TVA', MARGIN, w.y, 8, w.bold);
  w.text('Base HT', 200, w.y, 8, w.bold, 'right');
  w.text('Montant TVA', 280, w.y, 8, w.bold, 'right');
  const totalsTop = w.y;
  for (const g of invoice.vatBreakdown) {
    w.y -= 12;
    w.text(
      g.category === 'S'
        ? `${percent(g.rateBp)} (S)`
        : `${g.category}${g.exemptionReason ? ` - ${g.exemptionReason}` : ''}`.slice(0, 60),
      MARGIN,
      w.y,
      8,
    );
    w.text(money(g.taxableCents, invoice.currency), 200, w.y, 8, w.font, 'right');
    w.text(money(g.vatCents, invoice.currency), 280, w.y, 8, w.font, 'right');
  }
  let y = totalsTop;
  for (const [label, cents, strong] of [
    ['Total HT', invoice.taxExclusiveCents, false],
    ['Total TVA', invoice.vatTotalCents, false],
    [isCredit ? 'Total avoir TTC' : 'Total TTC', invoice.grandTotalCents, true],
    [isCredit ? 'Montant crédité' : 'Net à payer', invoice.grandTotalCents, true],
  ] as const) {
    w.text(label, 400, y, 9, strong ? w.bold : w.font);
    w.text(money(cents, invoice.currency), right, y, 9, strong ? w.bold : w.font, 'right');
    y -= 13;
  }
  // In another currency than the books': the rate and the VAT in the accounting currency (BT-111).
  const terms = exchangeOf(invoice);
  if (terms) {
    const vat = vatInAccounting(
      invoice.vatBreakdown.map((g) => g.vatCents),
      terms,
    ).total;
    for (const text of [
      `Taux : 1 ${terms.currency} = ${terms.exchangeRate.replace('.', ',')} ${terms.accountingCurrency}`,
      `TVA en ${terms.accountingCurrency} : ${money(vat, terms.accountingCurrency)}`,
    ]) {
      w.text(text, right, y, 8, w.font, 'right');
      y -= 11;
    }
  }
  w.y = Math.min(w.y, y) - 20;

  const footer = [
    invoice.paymentTerms && `Conditions de paiement : ${invoice.paymentTerms}`,
    !isCredit &&
      seller.iban &&
      `Règlement par virement : IBAN ${seller.iban}${seller.bic ? ` - BIC ${seller.bic}` : ''} - référence ${invoice.number}`,
    invoice.note,
  ].filter((l): l is string => !!l);
  for (const paragraph of footer) {
    for (const l of w.wrap(paragraph, right - MARGIN, 8)) {
      w.need(12);
      w.text(l, MARGIN, w.y, 8);
      w.y -= 11;
    }
    w.y -= 4;
  }
  return pdf.save({ useObjectStreams: false });
}
