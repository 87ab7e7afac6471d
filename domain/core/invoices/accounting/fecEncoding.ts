import iconv from 'iconv-lite';

/**
 * The FEC's character encodings. The administration reads both; many French accounting tools still import only
 * ISO-8859-15 (Latin-9: Latin-1 with €, Œ, œ, Š, š, Ž, ž, Ÿ in place of ¤ ¦ ¨ ´ ¸ ¼ ½ ¾). UTF-8 is the default and
 * writes every character as it is.
 */
export const fecEncodings = ['utf-8', 'iso-8859-15'] as const;
export type FecEncoding = (typeof fecEncodings)[number];

/** Content-Type of the file in each encoding. */
export const fecContentType = (encoding: FecEncoding) => `text/plain; charset=${encoding}`;

/** The characters of ISO-8859-15 a FEC may hold: tab, CR, LF and the printable ones (no C0 or C1 control). */
const LATIN9 = new Set(
  [...iconv.decode(Buffer.from(Array.from({ length: 256 }, (_, i) => i)), 'iso-8859-15')].filter(
    (ch, byte) => byte === 9 || byte === 10 || byte === 13 || (byte >= 0x20 && byte < 0x7f) || byte >= 0xa0,
  ),
);

/** What Latin-9 lacks and a decomposition does not give: typographic punctuation and spaces, a few letters. */
const SPELLED: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u2032': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u201f': '"',
  '\u2033': '"',
  '\u2039': '<',
  '\u203a': '>',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2015': '-',
  '\u2212': '-',
  '\u2026': '...',
  '\u2022': '*',
  '\u2002': ' ',
  '\u2003': ' ',
  '\u2009': ' ',
  '\u200a': ' ',
  '\u202f': '\u00a0',
  '\u2007': '\u00a0',
  '\u0141': 'L',
  '\u0142': 'l',
  '\u0110': 'D',
  '\u0111': 'd',
  '\u0131': 'i',
  '\u0127': 'h',
  '\u0126': 'H',
  '\u2122': 'TM',
};

/** Never produced by transliteration: they would split a cell or a line. */
const STRUCTURAL = /[\t|\r\n]/;

/** The character written for one that has no Latin-9 spelling. */
export const FEC_REPLACEMENT = '?';

/**
 * A text in the characters of ISO-8859-15, predictably: a character Latin-9 has stays; typographic quotes,
 * dashes, ellipsis and spaces become their ASCII (or no-break space) spelling, and Ł ł Đ đ ı ħ Ħ their letter
 * (SPELLED); any other letter is decomposed (NFKD) with its accents dropped when what is left is Latin-9 (ą → a,
 * ő → o, ș → s, ﬁ → fi, full-width Ａ → A); everything else (emoji, CJK, Cyrillic, Greek, symbols) becomes `?`,
 * one per character. Never yields a tab, pipe or line break, so the columns stay as they were.
 */
export function toLatin9(text: string): string {
  let out = '';
  for (const ch of text) {
    if (LATIN9.has(ch)) out += ch;
    else if (SPELLED[ch] !== undefined) out += SPELLED[ch];
    else {
      const base = ch.normalize('NFKD').replace(/\p{M}/gu, '');
      out += base && [...base].every((c) => LATIN9.has(c) && !STRUCTURAL.test(c)) ? base : FEC_REPLACEMENT;
    }
  }
  return out;
}

/** The bytes of a piece of the FEC in the encoding asked for (Latin-9 after toLatin9). */
export function encodeFec(text: string, encoding: FecEncoding): Buffer {
  return encoding === 'utf-8' ? Buffer.from(text, 'utf8') : iconv.encode(toLatin9(text), 'iso-8859-15');
}
