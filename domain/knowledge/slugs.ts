import { randomBytes } from 'node:crypto';
import type { Em } from '../../lib/db';
import { conflict } from '../../lib/errors';
import { ARTICLE_COLUMNS } from '../../entities/knowledge/article';
import { SPACE_COLUMNS } from '../../entities/knowledge/space';
import { slugify } from '../../lib/slugs';
import { articleSlugsStartingWith, articleSlugTaken } from './store/articles';
import { lockSlugBase } from './store/locks';
import { spaceSlugTaken } from './store/spaces';

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const slugTaken = () => conflict('slug_taken', 'This slug is already taken');

/** The first of `base`, `base-2`, `base-3` ... that is not in `used`. */
export function nextFreeSlug(base: string, used: ReadonlySet<string>): string {
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

// Derived slugs of one base are chosen one transaction at a time (lockSlugBase: `em` must be in a transaction), so
// concurrent creations with the same title or name see each other's slug instead of choosing the same one and
// failing on the unique index with a 409 the client never asked for.

/**
 * A free space slug: the one asked for (409 `slug_taken` when any organisation has it: slugs are unique across
 * the service), or one derived from the name with a short suffix when needed. The unique index decides the
 * races of a slug asked for.
 */
export async function spaceSlug(em: Em, wanted: string | undefined, name: string, exceptId?: string): Promise<string> {
  if (wanted) {
    if (await spaceSlugTaken(em, wanted, exceptId)) throw slugTaken();
    return wanted;
  }
  // Room for the suffix (-xxxxxx) in the column.
  const base = slugify(name, SPACE_COLUMNS.slug - 10, 'space');
  await lockSlugBase(em, 'kb_space_slug', base);
  if (!(await spaceSlugTaken(em, base, exceptId))) return base;
  for (;;) {
    const candidate = `${base}-${randomBytes(3).toString('hex')}`;
    if (!(await spaceSlugTaken(em, candidate, exceptId))) return candidate;
  }
}

/**
 * A free article slug inside a space: as asked (409 when taken), or derived from the title with -2, -3 ...
 * A derived slug can still meet another base's (a title "Notes 2" while "Notes" takes notes-2): createArticle
 * retries those.
 */
export async function articleSlug(
  em: Em,
  spaceId: string,
  wanted: string | undefined,
  title: string,
  exceptId?: string,
): Promise<string> {
  if (wanted) {
    if (await articleSlugTaken(em, spaceId, wanted, exceptId)) throw slugTaken();
    return wanted;
  }
  // Room for -2, -3 ... in the column.
  const base = slugify(title, ARTICLE_COLUMNS.slug - 10);
  await lockSlugBase(em, `kb_article_slug:${spaceId}`, base);
  return nextFreeSlug(base, await articleSlugsStartingWith(em, spaceId, base, exceptId));
}
