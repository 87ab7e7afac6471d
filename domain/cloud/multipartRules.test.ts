import { AppError } from '../../lib/errors';
import { checkPartNumber, missingParts, partCountOf, partLength, partSizeFor, planCompletion } from './multipartRules';

const MIB = 1024 ** 2;
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as AppError).code;
  }
  return null;
};

describe('part sizes', () => {
  it('keeps the least part size while 10,000 parts cover the file', () => {
    expect(partSizeFor(1, 8 * MIB)).toBe(8 * MIB);
    expect(partSizeFor(80_000 * MIB, 8 * MIB)).toBe(8 * MIB);
  });

  it('grows the part size (whole MiB) for files that would need more than 10,000 parts', () => {
    const size = 6 * 1024 ** 4;
    const partSize = partSizeFor(size, 8 * MIB);
    expect(partSize % MIB).toBe(0);
    expect(partCountOf(size, partSize)).toBeLessThanOrEqual(10_000);
    expect(partCountOf(size, partSize - MIB)).toBeGreaterThan(10_000);
    const big = 5 * 1024 ** 4 + 12_345;
    expect(partCountOf(big, partSizeFor(big, 5 * MIB))).toBeLessThanOrEqual(10_000);
  });

  it('gives every part the part size but the last, which holds what remains', () => {
    expect(partCountOf(10, 4)).toBe(3);
    expect([1, 2, 3].map((n) => partLength(n, 10, 4))).toEqual([4, 4, 2]);
    expect(partCountOf(8, 4)).toBe(2);
    expect(partLength(2, 8, 4)).toBe(4);
    expect(partCountOf(3, 4)).toBe(1);
    expect(partLength(1, 3, 4)).toBe(3);
  });

  it('refuses part numbers outside the upload', () => {
    expect(codeOf(() => checkPartNumber(0, 10, 4))).toBe('part_number_invalid');
    expect(codeOf(() => checkPartNumber(4, 10, 4))).toBe('part_number_invalid');
    expect(codeOf(() => checkPartNumber(1.5, 10, 4))).toBe('part_number_invalid');
    expect(codeOf(() => checkPartNumber(3, 10, 4))).toBeNull();
    expect(missingParts([{ partNumber: 2 }], 3)).toEqual([1, 3]);
  });
});

describe('planCompletion', () => {
  const upload = { size: 10, partSize: 4 };
  const stored = [
    { partNumber: 1, etag: 'a1', size: 4 },
    { partNumber: 2, etag: 'b2', size: 4 },
    { partNumber: 3, etag: 'c3', size: 2 },
  ];

  it('takes the stored parts in order when none are given, and the given ones (quoted ETags too)', () => {
    expect(planCompletion(upload, [...stored].reverse())).toEqual([
      { partNumber: 1, etag: 'a1' },
      { partNumber: 2, etag: 'b2' },
      { partNumber: 3, etag: 'c3' },
    ]);
    const given = [
      { partNumber: 1, etag: '"a1"' },
      { partNumber: 2, etag: 'b2' },
      { partNumber: 3, etag: 'c3' },
    ];
    expect(planCompletion(upload, stored, given).map((p) => p.etag)).toEqual(['a1', 'b2', 'c3']);
  });

  it('ignores stored parts beyond the upload when none are given', () => {
    expect(planCompletion(upload, [...stored, { partNumber: 4, etag: 'd4', size: 1 }])).toHaveLength(3);
  });

  it('names the missing parts (409 parts_missing), stored but not given ones included', () => {
    expect(codeOf(() => planCompletion(upload, [stored[0], stored[2]]))).toBe('parts_missing');
    expect(codeOf(() => planCompletion(upload, stored, [{ partNumber: 1, etag: 'a1' }]))).toBe('parts_missing');
    expect(() => planCompletion(upload, [stored[2]])).toThrow(/Parts missing: 1, 2 \(of 1 to 3\)/);
  });

  it('refuses another ETag than the stored part (409 part_mismatch) and parts of another length (409)', () => {
    const given = stored.map((p) => ({ partNumber: p.partNumber, etag: p.etag }));
    given[1] = { partNumber: 2, etag: 'old' };
    expect(codeOf(() => planCompletion(upload, stored, given))).toBe('part_mismatch');
    const short = stored.map((p) => (p.partNumber === 1 ? { ...p, size: 3 } : p));
    expect(codeOf(() => planCompletion(upload, short))).toBe('part_size_mismatch');
    const long = stored.map((p) => (p.partNumber === 3 ? { ...p, size: 3 } : p));
    expect(() => planCompletion(upload, long)).toThrow(/part 3 has 3 bytes, 2 expected/);
  });

  it('refuses given lists out of order or naming parts outside the upload (400)', () => {
    const swapped = [
      { partNumber: 2, etag: 'b2' },
      { partNumber: 1, etag: 'a1' },
      { partNumber: 3, etag: 'c3' },
    ];
    expect(codeOf(() => planCompletion(upload, stored, swapped))).toBe('validation_failed');
    const twice = [
      { partNumber: 1, etag: 'a1' },
      { partNumber: 1, etag: 'a1' },
    ];
    expect(codeOf(() => planCompletion(upload, stored, twice))).toBe('validation_failed');
    expect(codeOf(() => planCompletion(upload, stored, [{ partNumber: 4, etag: 'x' }]))).toBe('part_number_invalid');
  });
});
