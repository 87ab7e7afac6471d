import { PDFDocument } from 'pdf-lib';
import { AppError } from '../../../../lib/errors';
import { centsOf, isoDateOf } from './document';
import { extractFacturX } from './extractFacturX';
import { readDocument } from './readDocument';
import { ublNote } from './parseUbl';

const refusal = async (bytes: Uint8Array | string) => {
  try {
    await readDocument(typeof bytes === 'string' ? Buffer.from(bytes) : bytes);
  } catch (err) {
    if (err instanceof AppError)
      return { status: err.status, code: err.code, fields: (err.errors ?? []).map((e) => e.field) };
    throw err;
  }
  return null;
};

const pdfWith = async (name: string, content: string) => {
  const pdf = await PDFDocument.create();
  pdf.addPage();
  await pdf.attach(Buffer.from(content), name, { mimeType: 'text/xml' });
  return pdf.save();
};

describe('reading a received document', () => {
  it.each<[string | null | undefined, number | null]>([
    ['12.34', 1234],
    ['12.345', 1235],
    ['-0.005', -1],
    ['100', 10000],
    ['.5', 50],
    ['1e3', null],
    ['', null],
    [null, null],
  ])('centsOf(%j) = %j', (value, expected) => expect(centsOf(value)).toBe(expected));

  it.each<[string, string | null]>([
    ['20261120', '2026-11-20'],
    ['2026-11-20', '2026-11-20'],
    ['20260230', null],
    ['2026-11', null],
  ])('isoDateOf(%j) = %j', (value, expected) => expect(isoDateOf(value)).toBe(expected));

  it.each([
    ['#PMT#40 EUR', { subject: 'PMT', text: '40 EUR' }],
    ['Merci', { subject: null, text: 'Merci' }],
  ])('ublNote(%j)', (raw, expected) => expect(ublNote(raw)).toEqual(expected));

  it('finds the Factur-X XML among the PDF attachments by its standard names', async () => {
    const found = await extractFacturX(await pdfWith('factur-x.xml', '<x/>'));
    expect({ name: found.fileName, xml: Buffer.from(found.xml).toString() }).toEqual({
      name: 'factur-x.xml',
      xml: '<x/>',
    });
    expect((await extractFacturX(await pdfWith('ZUGFeRD-invoice.xml', '<z/>'))).fileName).toBe('ZUGFeRD-invoice.xml');
  });

  it.each<[string, () => Promise<Uint8Array | string>, string, string[]]>([
    ['a PDF with another attachment', () => pdfWith('notes.xml', '<x/>'), 'einvoice_no_xml', []],
    ['a broken PDF', async () => '%PDF-1.7\n garbage', 'einvoice_no_xml', []],
    ['Latin-1 bytes', async () => Buffer.from([0x3c, 0x61, 0xe9, 0x3e]), 'einvoice_not_xml', []],
    ['XML that does not parse', async () => '<Invoice x=1/>', 'einvoice_not_xml', []],
    ['a DOCTYPE', async () => '<!DOCTYPE a SYSTEM "file:///etc/passwd"><a/>', 'einvoice_not_xml', []],
    [
      'a CII root in another namespace',
      async () => '<CrossIndustryInvoice xmlns="urn:x"/>',
      'einvoice_not_invoice',
      [],
    ],
    ['a Factur-X PDF holding UBL', () => pdfWith('factur-x.xml', '<Invoice/>'), 'einvoice_not_invoice', []],
    [
      'a UBL Invoice outside the UBL namespace',
      async () => '<Invoice xmlns="urn:example"><ID>1</ID></Invoice>',
      'einvoice_rules_failed',
      ['UBL-SYNTAX root', 'UBL-SYNTAX ID', 'BR-01', 'BR-03'],
    ],
  ])('refuses %s', async (_, make, code, fields) => {
    const r = await refusal(await make());
    expect(r).toMatchObject({ status: 422, code });
    expect(r?.fields).toEqual(expect.arrayContaining(fields));
  });
});
