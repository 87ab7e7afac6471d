import type { PartRef, StoredPart } from '../../lib/storage';
import { badRequest, conflict } from '../../lib/errors';

/** The rules of a resumable (multipart) upload's parts: pure, no I/O. */

/** Most parts of one upload (S3's bound). */
export const MAX_PARTS = 10_000;
const MIB = 1024 ** 2;

/**
 * The part size of a file of `size` bytes: `min`, or more for a file that would need more than MAX_PARTS parts of
 * it (then a whole number of MiB, so that ceil(size / partSize) <= MAX_PARTS).
 */
export function partSizeFor(size: number, min: number): number {
  const needed = Math.ceil(size / MAX_PARTS);
  return needed <= min ? min : Math.ceil(needed / MIB) * MIB;
}

/** How many parts a file of `size` bytes has (at least one). */
export const partCountOf = (size: number, partSize: number) => Math.max(1, Math.ceil(size / partSize));

/** The exact length of part `n` (1-based): `partSize`, the last part what remains. */
export function partLength(n: number, size: number, partSize: number): number {
  const count = partCountOf(size, partSize);
  return n < count ? partSize : size - (count - 1) * partSize;
}

/** 400 `part_number_invalid` unless `n` is a part of this upload (1 to its part count). */
export function checkPartNumber(n: number, size: number, partSize: number): void {
  const count = partCountOf(size, partSize);
  if (!Number.isInteger(n) || n < 1 || n > count)
    throw badRequest('part_number_invalid', `Part ${n} is not a part of this upload: its parts are 1 to ${count}`);
}

/** The part numbers of 1..count not among `parts`. */
export function missingParts(parts: Pick<StoredPart, 'partNumber'>[], count: number): number[] {
  const have = new Set(parts.map((p) => p.partNumber));
  return Array.from({ length: count }, (_, i) => i + 1).filter((n) => !have.has(n));
}

const listed = (numbers: number[]) =>
  numbers.length > 20 ? `${numbers.slice(0, 20).join(', ')} and ${numbers.length - 20} more` : numbers.join(', ');
const unquoted = (etag: string) => etag.replace(/^"|"$/g, '');

/**
 * The parts to assemble, in order: every part 1..count, each of its exact length, named by the client (`given`,
 * each ETag as its PUT answered) or taken as the store lists them. 400 `part_number_invalid` for a given number
 * outside the upload, 400 `validation_failed` for a given list out of order; 409 `parts_missing` (listed), 409
 * `part_mismatch` when a given ETag is not the stored part's (replaced since), 409 `part_size_mismatch` when a part
 * does not have its length (PUT it again).
 */
export function planCompletion(
  upload: { size: number; partSize: number },
  stored: StoredPart[],
  given?: PartRef[],
): PartRef[] {
  const { size, partSize } = upload;
  const count = partCountOf(size, partSize);
  const byNumber = new Map(stored.map((p) => [p.partNumber, p]));
  if (given) {
    for (const p of given) checkPartNumber(p.partNumber, size, partSize);
    if (given.some((p, i) => i > 0 && p.partNumber <= given[i - 1].partNumber))
      throw badRequest('validation_failed', 'The request is invalid', [
        { field: 'parts', message: 'must be in ascending order of partNumber, each part once' },
      ]);
  }
  const chosen = given ?? stored.filter((p) => p.partNumber <= count).sort((a, b) => a.partNumber - b.partNumber);
  const missing = missingParts(
    chosen.filter((p) => byNumber.has(p.partNumber)),
    count,
  );
  if (missing.length)
    throw conflict(
      'parts_missing',
      `Parts missing: ${listed(missing)} (of 1 to ${count}); PUT them, then complete again`,
    );
  const changed = chosen.filter((p) => unquoted(p.etag) !== byNumber.get(p.partNumber)!.etag).map((p) => p.partNumber);
  if (changed.length)
    throw conflict(
      'part_mismatch',
      `The stored parts ${listed(changed)} have other ETags than given (uploaded again since?); list the parts and complete with theirs`,
    );
  const wrong = chosen
    .map((p) => byNumber.get(p.partNumber)!)
    .filter((p) => p.size !== partLength(p.partNumber, size, partSize))
    .map((p) => `part ${p.partNumber} has ${p.size} bytes, ${partLength(p.partNumber, size, partSize)} expected`);
  if (wrong.length)
    throw conflict('part_size_mismatch', `${wrong.slice(0, 20).join('; ')}: PUT these parts again, then complete`);
  return chosen.map((p) => ({ partNumber: p.partNumber, etag: byNumber.get(p.partNumber)!.etag }));
}
