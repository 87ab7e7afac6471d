import type { Em } from '../../lib/db';
import { numbered } from './names';
import { firstFreeName } from './store/nodes';

/** Candidates freeName asks the database about at a time (the name itself, then "name (2)" ...). */
const FREE_NAME_BATCH = 50;

/** The candidates from `first` on: the name itself (1), then "name (2)", "name (3)" ... */
export const nameCandidates = (name: string, isFile: boolean, first: number, count = FREE_NAME_BATCH): string[] =>
  Array.from({ length: count }, (_, i) => (first + i === 1 ? name : numbered(name, first + i, isFile)));

/**
 * The name itself when free in the folder, else the first free "name (n)". Creations (uploads, new
 * folders, documents, restores) take it; the unique index still decides under a race (the caller retries).
 * The database compares, with lower() on both sides like the unique index: JavaScript's toLowerCase() differs
 * from PostgreSQL's lower() for some letters ("İ", a final "Σ"), which made a taken name look free. One query
 * (one index probe per candidate) answers the first free one of a batch; a folder holding more numbered
 * copies than a batch takes another.
 */
export async function freeName(
  em: Em,
  tenantId: string,
  parentId: string | null,
  name: string,
  isFile: boolean,
): Promise<string> {
  for (let first = 1; ; first += FREE_NAME_BATCH) {
    const free = await firstFreeName(em, tenantId, parentId, nameCandidates(name, isFile, first));
    if (free !== null) return free;
  }
}
