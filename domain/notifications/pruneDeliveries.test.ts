import { firstIdAt } from './pruneDeliveries';

describe('firstIdAt', () => {
  it('is the lowest UUIDv7 of the millisecond', () => {
    expect(firstIdAt(new Date(0))).toBe('00000000-0000-7000-8000-000000000000');
    expect(firstIdAt(new Date('2026-12-02T00:00:00.000Z'))).toBe(
      `${Date.UTC(2026, 11, 2)
        .toString(16)
        .padStart(12, '0')
        .replace(/^(.{8})(.{4})$/, '$1-$2')}-7000-8000-000000000000`,
    );
  });

  it('sorts above every id of earlier moments and below the later ones (as text, as PostgreSQL compares uuids)', () => {
    const at = new Date('2026-12-02T12:34:56.789Z');
    const before = firstIdAt(new Date(at.getTime() - 1)).replace(/0+$/, (z) => 'f'.repeat(z.length));
    expect(before < firstIdAt(at)).toBe(true);
    expect(firstIdAt(at) < firstIdAt(new Date(at.getTime() + 1))).toBe(true);
  });
});
