import iconv from 'iconv-lite';
import { encodeFec, toLatin9 } from './fecEncoding';

describe('FEC encodings', () => {
  it.each([
    ['Société Générale à Nîmes, 12 €', 'Société Générale à Nîmes, 12 €'],
    ['Œuvre Šárka Ž Ÿ œ ß æ ø', 'Œuvre Šárka Ž Ÿ œ ß æ ø'],
    ['L’atelier “Zoë” – 3…', 'L\'atelier "Zoë" - 3...'],
    ['Łódź Đakovo Kraków Iași Dvořák Ångström', 'Lódz Dakovo Kraków Iasi Dvorák Ångström'],
    ['ﬁnance Ａ１', 'finance A1'],
    ['Café 😀 東京 Москва Ελλάς ¤', 'Café ? ?? ?????? ????? ?'],
    ['fullwidth ｜ bar', 'fullwidth ? bar'],
    ['12\u202f345\u2009€', '12\u00a0345 €'],
  ])('spells %p in Latin-9 as %p', (text, latin9) => {
    expect(toLatin9(text)).toBe(latin9);
  });

  it('writes one byte a character in ISO-8859-15, UTF-8 unchanged', () => {
    const text = 'Débit\t€\r\n';
    expect([...encodeFec(text, 'iso-8859-15')]).toEqual([0x44, 0xe9, 0x62, 0x69, 0x74, 0x09, 0xa4, 0x0d, 0x0a]);
    expect(encodeFec(text, 'utf-8').toString('utf8')).toBe(text);
    expect(iconv.decode(encodeFec('Ÿ ½ œ', 'iso-8859-15'), 'iso-8859-15')).toBe('Ÿ ? œ');
  });
});
