import { KnowledgeSpace } from '../../entities/knowledge/space';
import type { ArticleStatus } from '../../entities/knowledge/article';
import type { Em } from '../../lib/db';

export interface SearchProps {
  q: string;
  limit: number;
  /** The organisation searched (member and integration surfaces); absent on the public surface, where spaceId is given. */
  tenantId?: string;
  spaceId?: string;
  status?: ArticleStatus;
  /** Published articles only (public surface, members without knowledge.write). */
  publishedOnly?: boolean;
}

export interface SearchHit {
  id: string;
  spaceId: string;
  collectionId: string | null;
  title: string;
  slug: string;
  kind: string;
  status: string;
  rank: number;
  /** HTML-escaped text with matches in <mark>. */
  snippet: string;
  /** Found by title similarity only (a typo), not by the full-text match. */
  fuzzy: boolean;
  updatedAt: Date;
}

const OPEN = '\u0001';
const CLOSE = '\u0002';
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Full-text search over titles (weight A) and text (weight B) with each space's language, ranked by
 * ts_rank_cd, plus pg_trgm word similarity on titles so that a typo ("instalation") still finds
 * "Installation". The query is parsed with websearch_to_tsquery (quotes, OR, -word) in every language of the
 * spaces in scope, OR-ed into one constant tsquery so the GIN index serves it. Snippets come from ts_headline
 * on the page's hits only, HTML-escaped, matches in <mark>. Archived articles are left out unless asked for.
 */
export async function searchArticles(em: Em, props: SearchProps): Promise<SearchHit[]> {
  const scope = { ...(props.spaceId ? { id: props.spaceId } : {}), ...(props.tenantId ? { tenantId: props.tenantId } : {}) };
  const spaces = await em.find(KnowledgeSpace, scope, { filters: false, fields: ['language'] });
  const languages = [...new Set(spaces.map((s) => s.language))];
  if (!languages.length) return [];
  const query = languages.map(() => `websearch_to_tsquery(?::regconfig, ?)`).join(' || ');
  const queryParams = languages.flatMap((l) => [l, props.q]);
  const status = props.publishedOnly ? 'published' : (props.status ?? null);
  const rows = await em.execute<{ id: string; space_id: string; collection_id: string | null; title: string; slug: string; kind: string; status: string; rank: number; fuzzy: boolean; updated_at: Date; snippet: string }[]>(
    `with q as (select (${query}) as query),
          hits as (
            select a.id, a.space_id, a.collection_id, a.title, a.slug, a.kind, a.status, a.updated_at, a.language, a.body_text,
                   (a.search_vector @@ q.query) as matched,
                   ts_rank_cd(a.search_vector, q.query, 1) as fts_rank,
                   word_similarity(?, a.title) as sim
            from knowledge_articles a, q
            where ${props.tenantId ? 'a.tenant_id = ?' : 'true'} and ${props.spaceId ? 'a.space_id = ?' : 'true'}
              and ${status ? 'a.status = ?' : `a.status <> 'archived'`}
              and (a.search_vector @@ q.query or ? <% a.title)
            order by (a.search_vector @@ q.query) desc, ts_rank_cd(a.search_vector, q.query, 1) desc, word_similarity(?, a.title) desc, a.id
            limit ?)
     select h.id, h.space_id, h.collection_id, h.title, h.slug, h.kind, h.status, h.updated_at,
            (case when h.matched then h.fts_rank + h.sim * 0.1 else h.sim * 0.05 end)::float8 as rank, not h.matched as fuzzy,
            ts_headline(h.language::regconfig, left(h.body_text, 20000), q.query, 'StartSel=${OPEN}, StopSel=${CLOSE}, MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "') as snippet
     from hits h, q
     order by h.matched desc, h.fts_rank desc, h.sim desc, h.id`,
    [...queryParams, props.q, ...(props.tenantId ? [props.tenantId] : []), ...(props.spaceId ? [props.spaceId] : []), ...(status ? [status] : []), props.q, props.q, props.limit],
  );
  return rows.map((r) => ({
    id: r.id,
    spaceId: r.space_id,
    collectionId: r.collection_id,
    title: r.title,
    slug: r.slug,
    kind: r.kind,
    status: r.status,
    rank: Number(r.rank),
    fuzzy: r.fuzzy,
    updatedAt: new Date(r.updated_at),
    snippet: escapeHtml(r.snippet ?? '').replaceAll(OPEN, '<mark>').replaceAll(CLOSE, '</mark>'),
  }));
}
