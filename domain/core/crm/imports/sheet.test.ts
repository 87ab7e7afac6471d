import {
  checkMapping,
  neutraliseFormula,
  rowRecord,
  sniffBytes,
  sniffDelimiter,
  suggestMapping,
  type SheetTarget,
} from './sheet';
import type { FieldDefinitions } from '../customValues';
import { sheetCustomerRow } from './sheetRow';

const bytes = (...b: number[]) => Uint8Array.from(b);
const defs: FieldDefinitions = new Map([
  ['seats', { type: 'number', options: [] }],
  ['vip', { type: 'boolean', options: [] }],
  ['notes', { type: 'text', options: [] }],
]);

describe('spreadsheet imports', () => {
  it.each([
    ['UTF-8 BOM', bytes(0xef, 0xbb, 0xbf, 0x61), { bom: 'utf-8', skip: 3 }],
    ['UTF-16LE BOM', bytes(0xff, 0xfe, 0x61, 0), { bom: 'utf-16le', skip: 2 }],
    ['UTF-16BE BOM', bytes(0xfe, 0xff, 0, 0x61), { bom: 'utf-16be', skip: 2 }],
    ['plain text', Buffer.from('name,email\n'), { bom: null, skip: 0 }],
    ['XLSX (zip)', bytes(0x50, 0x4b, 0x03, 0x04, 1), { refused: 'xlsx' }],
    ['XLS (OLE)', bytes(0xd0, 0xcf, 0x11, 0xe0, 1), { refused: 'xlsx' }],
    ['binary', bytes(0x47, 0x49, 0x46, 0, 1), { refused: 'binary' }],
    ['empty', bytes(), { refused: 'empty' }],
  ])('reads the first bytes: %s', (_, head, expected) => expect(sniffBytes(head)).toEqual(expected));

  it.each([
    ['name,email,phone\n', ','],
    ['name;email;phone\r\n', ';'],
    ['name\temail\tphone', '\t'],
    ['name|email', '|'],
    ['"a;b;c",x,y\n', ','],
    ['name\n;;;;', ','],
    ['', ','],
  ])('detects the delimiter of %j', (text, d) => expect(sniffDelimiter(text)).toBe(d));

  it.each([
    ['=HYPERLINK("http://x")', `'=HYPERLINK("http://x")`],
    ['@SUM(A1)', `'@SUM(A1)`],
    ['+cmd|x', `'+cmd|x`],
    ['-2+3+cmd', `'-2+3+cmd`],
    ['\tx', `'\tx`],
    ['+33 6 12 34 56 78', '+33 6 12 34 56 78'],
    ['-12', '-12'],
    ['Ada', 'Ada'],
    ['a=b', 'a=b'],
  ])('neutralises formula %j', (cell, out) => expect(neutraliseFormula(cell)).toBe(out));

  it('suggests a target per column, custom fields first, each target once', () => {
    expect(
      suggestMapping(
        ['Nom', 'E-mail', 'Téléphone', 'Mail', 'Code postal', 'Ville', 'Number of seats', 'Seats', 'Whatever'],
        new Map([
          ['seats', 'Number of seats'],
          ['vip', 'VIP'],
        ]),
      ),
    ).toEqual([
      'name',
      'email',
      'phone',
      'ignore',
      'address.postalCode',
      'address.city',
      'custom.seats',
      'ignore',
      'ignore',
    ]);
  });

  it.each([
    [['A', 'B'], ['name', 'email'], []],
    [['A', 'B'], ['firstName', 'lastName'], []],
    [['A', 'B'], ['email', 'email'], ['one column must be mapped to name (or firstName / lastName)']],
    [['A'], ['name', 'email'], ['give one target per column (1), in the order of the header']],
    [['A', 'B'], ['name', 'custom.nope'], ['column 2 (B): unknown target custom.nope']],
    [['A', 'B'], ['name', 'name'], ['column 2 (B): name is already the target of another column']],
  ])('checks mapping %j -> %j', (columns, mapping, problems) =>
    expect(checkMapping(defs, columns, mapping)).toEqual(problems),
  );

  const mapping: SheetTarget[] = [
    'firstName',
    'lastName',
    'email',
    'phone',
    'tags',
    'custom.seats',
    'custom.vip',
    'custom.notes',
    'address.city',
    'address.country',
  ];
  it('turns a row into a bulk-import record', () => {
    expect(
      rowRecord(defs, mapping, [
        'Ada',
        'Lovelace',
        'ada@example.com; a@b.test',
        '+44 20 1234',
        'vip, math',
        '1 200,5',
        'oui',
        '=1+2',
        'London',
        'gb',
      ]),
    ).toEqual({
      neutralised: 1,
      record: {
        name: 'Ada Lovelace',
        emails: [{ value: 'ada@example.com' }, { value: 'a@b.test' }],
        phones: [{ value: '+44 20 1234' }],
        tags: ['vip', 'math'],
        custom: { seats: 1200.5, vip: true, notes: "'=1+2" },
        addresses: [{ city: 'London', country: 'GB' }],
      },
    });
  });

  it('leaves empty cells out and refuses a row longer than the header', () => {
    expect(rowRecord(defs, ['name', 'email'], ['Bob', ''])).toEqual({ neutralised: 0, record: { name: 'Bob' } });
    expect(rowRecord(defs, ['name'], ['Bob', 'x'])).toEqual({
      error: { field: 'row', message: 'has 2 cells, the header 1' },
    });
    expect(rowRecord(defs, ['name', 'custom.seats'], ['Bob', 'many'])).toEqual({
      neutralised: 0,
      record: { name: 'Bob', custom: { seats: 'many' } },
    });
  });
});

describe('spreadsheet rows as customer rows', () => {
  it.each([
    [['name', 'email'], ['Ada', 'ada@example.com'], null],
    [['name', 'email'], ['Ada', 'not-mail'], 'emails[0].value'],
    [['name', 'custom.seats'], ['Ada', 'many'], 'custom.seats'],
    [['name', 'kind'], ['Ada', 'robot'], 'kind'],
    [['email'], ['ada@example.com'], 'name'],
  ] as [SheetTarget[], string[], string | null][])('%j %j -> %s', (mapping, cells, field) => {
    const out = sheetCustomerRow(defs, mapping, cells, 'imp');
    if (field === null) expect(out).toMatchObject({ row: { import_id: 'imp', external_id: null, name: 'Ada' } });
    else expect('errors' in out && out.errors.map((e) => e.field)).toContain(field);
  });
});
