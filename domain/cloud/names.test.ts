import { categoryOf, isUuid, MAX_NAME_LENGTH, mediaType, numbered, sanitizeName } from './names';

/** The invalidField a refused name throws: a 400 naming the field. */
const refusal = (field = 'name') =>
  expect.objectContaining({ status: 400, errors: [expect.objectContaining({ field })] });

describe('sanitizeName', () => {
  it('stores names in Unicode NFC, so a decomposed and a composed name are the same name', () => {
    const decomposed = 'Cafe\u0301.txt';
    expect(decomposed).not.toBe('Café.txt');
    expect(sanitizeName(decomposed)).toBe('Café.txt');
    expect(sanitizeName('Ångström')).toBe('\u00c5ngstr\u00f6m');
  });

  it('replaces separators and control characters, so no name reaches another path', () => {
    expect(sanitizeName('../../etc/passwd')).toBe('.._.._etc_passwd');
    expect(sanitizeName('a\\b')).toBe('a_b');
    expect(sanitizeName('line\u0000break\u001f\u007f')).toBe('line_break__');
  });

  it('collapses whitespace and drops leading, trailing spaces and trailing dots', () => {
    expect(sanitizeName('  quarterly \u00a0\u2003 report  ')).toBe('quarterly report');
    // Tabs and line breaks are control characters: replaced first, so they never join words.
    expect(sanitizeName('quarterly\treport\n')).toBe('quarterly_report_');
    expect(sanitizeName('notes. . .')).toBe('notes');
    expect(sanitizeName('.hidden')).toBe('.hidden');
  });

  it('refuses names with nothing visible, "." and ".."', () => {
    for (const raw of ['', '   ', '.', '..', '...', ' . ']) expect(() => sanitizeName(raw)).toThrow(refusal());
    expect(() => sanitizeName('', 'folderName')).toThrow(refusal('folderName'));
  });

  it('takes names up to MAX_NAME_LENGTH characters (after normalisation)', () => {
    expect(sanitizeName('a'.repeat(MAX_NAME_LENGTH))).toHaveLength(MAX_NAME_LENGTH);
    expect(() => sanitizeName('a'.repeat(MAX_NAME_LENGTH + 1))).toThrow(refusal());
    // 256 code units decomposed, 128 composed: fits.
    expect(sanitizeName('e\u0301'.repeat(128))).toHaveLength(128);
  });
});

describe('numbered', () => {
  it('numbers a file before its extension and a folder at the end', () => {
    expect(numbered('report.pdf', 2, true)).toBe('report (2).pdf');
    expect(numbered('archive.tar.gz', 3, true)).toBe('archive.tar (3).gz');
    expect(numbered('Photos', 2, false)).toBe('Photos (2)');
    expect(numbered('v1.2', 2, false)).toBe('v1.2 (2)');
    expect(numbered('.env', 2, true)).toBe('.env (2)');
  });

  it('cuts the stem so a numbered name still fits', () => {
    const long = `${'x'.repeat(MAX_NAME_LENGTH - 4)}.pdf`;
    const name = numbered(long, 12, true);
    expect(name).toHaveLength(MAX_NAME_LENGTH);
    expect(name.endsWith('x (12).pdf')).toBe(true);
  });

  it('counts an extension too long to leave room for a suffix as stem', () => {
    const name = `a.${'e'.repeat(MAX_NAME_LENGTH - 3)}`;
    const n = numbered(name, 999_999_999, true);
    expect(n).toHaveLength(MAX_NAME_LENGTH);
    expect(n.endsWith(' (999999999)')).toBe(true);
  });
});

describe('media types and categories', () => {
  it('compares media types without parameters and case', () => {
    expect(mediaType('Text/Plain; charset=utf-8')).toBe('text/plain');
    expect(mediaType(undefined)).toBe('');
    expect(mediaType(null)).toBe('');
  });

  it('files by media type first, then by extension', () => {
    expect(categoryOf('image/png', 'x.pdf')).toBe('image');
    expect(categoryOf('application/pdf', 'x')).toBe('pdf');
    expect(categoryOf('application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'x')).toBe('document');
    expect(categoryOf('text/csv', 'x')).toBe('spreadsheet');
    expect(categoryOf('application/x-7z-compressed', 'x')).toBe('archive');
    expect(categoryOf('text/markdown', 'x')).toBe('text');
    expect(categoryOf('application/octet-stream', 'Deck.KEY')).toBe('presentation');
    expect(categoryOf('application/octet-stream', 'blob')).toBe('other');
  });

  it('knows a uuid', () => {
    expect(isUuid('0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b')).toBe(true);
    expect(isUuid('0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5')).toBe(false);
    expect(isUuid("'; drop table x; --")).toBe(false);
  });
});
