import type { Quote } from '../../../../entities/core/quote';
import { A4, drawLineTable, drawParties, frDate, money, MARGIN, pdfLib, Writer } from '../invoicePdf';

/** The readable PDF of a sent quote (devis), drawn with the invoice PDF's writer: seller, customer, lines, VAT, totals, validity. */
export async function renderQuotePdf(quote: Quote): Promise<Uint8Array> {
  const seller = quote.seller!;
  const buyer = quote.buyer!;
  const title = `Devis ${quote.number}`;
  const { PDFDocument, StandardFonts } = pdfLib();
  const pdf = await PDFDocument.create();
  pdf.setTitle(title, { showInWindowTitleBar: true });
  pdf.setAuthor(seller.name);
  pdf.setSubject(`${title}, ${seller.name} → ${buyer.name}`);
  pdf.setCreator('Platform Suite invoicing');
  pdf.setProducer('pdf-lib');
  pdf.setCreationDate(quote.sentAt!);
  pdf.setModificationDate(quote.sentAt!);
  const w = new Writer(
    pdf,
    await pdf.embedFont(StandardFonts.Helvetica),
    await pdf.embedFont(StandardFonts.HelveticaBold),
  );
  const right = A4[0] - MARGIN;
  w.text(seller.name, MARGIN, w.y, 14, w.bold);
  w.text('DEVIS', right, w.y, 16, w.bold, 'right');
  w.y -= 18;
  w.text(`N° ${quote.number}`, right, w.y, 10, w.bold, 'right');
  w.text(`Date : ${frDate(quote.issueDate)}`, right, w.y - 13, 9, w.font, 'right');
  w.text(`Valable jusqu'au : ${frDate(quote.validUntil)}`, right, w.y - 26, 9, w.font, 'right');
  drawParties(w, seller, buyer, 18);

  drawLineTable(w, quote.lines, quote.currency);
  w.rule();
  w.y -= 16;
  w.need(60);
  for (const [label, cents, strong] of [
    ['Total HT', quote.taxExclusiveCents, false],
    ['Total TVA', quote.vatTotalCents, false],
    ['Total TTC', quote.grandTotalCents, true],
  ] as const) {
    w.text(label, 400, w.y, 9, strong ? w.bold : w.font);
    w.text(money(cents, quote.currency), right, w.y, 9, strong ? w.bold : w.font, 'right');
    w.y -= 13;
  }
  w.y -= 14;
  for (const paragraph of [
    quote.paymentTerms && `Conditions de paiement : ${quote.paymentTerms}`,
    quote.note,
    'Bon pour accord : acceptez ce devis en ligne par le lien reçu avec lui.',
  ].filter((l): l is string => !!l)) {
    for (const l of w.wrap(paragraph, right - MARGIN, 8)) {
      w.need(12);
      w.text(l, MARGIN, w.y, 8);
      w.y -= 11;
    }
    w.y -= 4;
  }
  return pdf.save({ useObjectStreams: false });
}
