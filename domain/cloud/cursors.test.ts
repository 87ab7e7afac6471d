import { decodeCursor, encodeCursor, pageOf } from './cursors';

const ID = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const cursorError = expect.objectContaining({ status: 400, errors: [expect.objectContaining({ field: 'cursor' })] });
const forged = (values: unknown) => Buffer.from(JSON.stringify(values)).toString('base64url');

describe('listing cursors', () => {
  it('round-trips the sort values of the last item', () => {
    const cursor = encodeCursor(['true', '2026-12-05 10:11:12.123456+00', ID]);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, ['boolean', 'timestamptz', 'uuid'])).toEqual([
      'true',
      '2026-12-05 10:11:12.123456+00',
      ID,
    ]);
    expect(decodeCursor(undefined, ['text'])).toBeNull();
    expect(decodeCursor('', ['text'])).toBeNull();
  });

  it('takes the values PostgreSQL prints', () => {
    expect(decodeCursor(forged(['-9223372036854775808']), ['bigint'])).toEqual(['-9223372036854775808']);
    expect(decodeCursor(forged(['9223372036854775807']), ['bigint'])).toEqual(['9223372036854775807']);
    expect(decodeCursor(forged(['2024-02-29 23:59:59+05:30']), ['timestamptz'])).toEqual(['2024-02-29 23:59:59+05:30']);
    expect(decodeCursor(forged(['ünïcode name']), ['text'])).toEqual(['ünïcode name']);
  });

  it('refuses a forged cursor with a 400 rather than a failed statement', () => {
    for (const [values, types] of [
      [['9223372036854775808'], ['bigint']],
      [['1e3'], ['bigint']],
      [['2026-02-30 10:00:00+00'], ['timestamptz']],
      [['2026-12-05 24:00:00+00'], ['timestamptz']],
      [['2026-12-05 10:00:00+16'], ['timestamptz']],
      [['2026-12-05T10:00:00Z'], ['timestamptz']],
      [['yes'], ['boolean']],
      [['not-a-uuid'], ['uuid']],
      [['a\u0000b'], ['text']],
      [['x'.repeat(1001)], ['text']],
      [[1], ['bigint']],
      [['a', ID], ['text']],
      [{ 0: 'a' }, ['text']],
    ] as const) {
      expect(() => decodeCursor(forged(values), [...types])).toThrow(cursorError);
    }
    expect(() => decodeCursor('%%%', ['text'])).toThrow(cursorError);
    expect(() => decodeCursor(Buffer.from('not json').toString('base64url'), ['text'])).toThrow(cursorError);
  });

  it('cuts limit + 1 rows into a page, with a cursor only when more follow', () => {
    const rows = [{ k: 'a' }, { k: 'b' }, { k: 'c' }];
    const page = pageOf(
      rows,
      2,
      (r) => r.k.toUpperCase(),
      (r) => [r.k],
    );
    expect(page.items).toEqual(['A', 'B']);
    expect(decodeCursor(page.nextCursor!, ['text'])).toEqual(['b']);
    expect(
      pageOf(
        rows,
        3,
        (r) => r.k,
        (r) => [r.k],
      ),
    ).toEqual({ items: ['a', 'b', 'c'], nextCursor: null });
    expect(
      pageOf(
        [],
        3,
        (r) => r,
        () => [],
      ),
    ).toEqual({ items: [], nextCursor: null });
  });
});
