import { randomBytes } from 'node:crypto';
import { KnowledgeArticle } from '../../entities/knowledge/article';
import { KnowledgeSpace } from '../../entities/knowledge/space';
import type { Em } from '../../lib/db';
import { conflict } from '../../lib/errors';
import { slugify } from '../../lib/slugs';

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const slugTaken = () => conflict('slug_taken', 'This slug is already taken');

/**
 * Serialises the choice of slugs derived from one base until the transaction ends (an advisory lock: `em` must be
 * in a transaction), so concurrent creations with the same title or name see each other's slug instead of
 * choosing the same one and failing on the unique index with a 409 the client never asked for.
 */
const lockDerived = (em: Em, scope: string, base: string) => em.execute('select pg_advisory_xact_lock(hashtext(?))', [`${scope}:${base}`]);

/**
 * A free space slug: the one asked for (409 `slug_taken` when any organisation has it: slugs are unique across
 * the service), or one derived from the name with a short suffix when needed. Derived slugs of one base are
 * chosen one transaction at a time; the unique index decides the races of a slug asked for.
 */
export async function spaceSlug(em: Em, wanted: string | undefined, name: string, exceptId?: string): Promise<string> {
  const taken = async (slug: string) => !!(await em.findOne(KnowledgeSpace, { slug, ...(exceptId ? { id: { $ne: exceptId } } : {}) }, { filters: false, fields: ['id'] }));
  if (wanted) {
    if (await taken(wanted)) throw slugTaken();
    return wanted;
  }
  const base = slugify(name, 70, 'space');
  await lockDerived(em, 'kb_space_slug', base);
  if (!(await taken(base))) return base;
  for (;;) {
    const candidate = `${base}-${randomBytes(3).toString('hex')}`;
    if (!(await taken(candidate))) return candidate;
  }
}

/**
 * A free article slug inside a space: as asked (409 when taken), or derived from the title with -2, -3 ...
 * Derived slugs of one base in one space are chosen one transaction at a time (`em` in a transaction); a derived
 * slug can still meet another base's (a title "Notes 2" while "Notes" takes notes-2): createArticle retries those.
 */
export async function articleSlug(em: Em, spaceId: string, wanted: string | undefined, title: string, exceptId?: string): Promise<string> {
  if (wanted) {
    const other = await em.findOne(KnowledgeArticle, { spaceId, slug: wanted, ...(exceptId ? { id: { $ne: exceptId } } : {}) }, { fields: ['id'] });
    if (other) throw slugTaken();
    return wanted;
  }
  const base = slugify(title, 150);
  await lockDerived(em, `kb_article_slug:${spaceId}`, base);
  const rows = await em.find(KnowledgeArticle, { spaceId, slug: { $like: `${base}%` }, ...(exceptId ? { id: { $ne: exceptId } } : {}) }, { fields: ['slug'] });
  const used = new Set(rows.map((r) => r.slug));
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}
