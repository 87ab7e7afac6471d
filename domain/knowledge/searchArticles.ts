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

/** Title matches ranked at most (a title match always competes for the page). */
const TITLE_CANDIDATES = 500;
/** Body-only matches ranked at most (at least 5 pages' worth). */
const BODY_CANDIDATES = 100;
const OPEN = '\u0001';
const CLOSE = '\u0002';
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Full-text search over titles (weight A) and text (weight B) with each space's language, ranked by
 * ts_rank_cd over a bounded candidate set (all title matches, up to 500, and the first 100 body matches: ranking
 * every match of a common word costs a tsvector read per match); when those leave the page short, pg_trgm word similarity on titles fills it, so a typo ("instllation") still finds
 * "Installation". The query is parsed with websearch_to_tsquery (quotes, OR, -word) in every language of the
 * spaces in scope, OR-ed into one constant tsquery so the GIN index serves it. Snippets come from ts_headline
 * on the page's hits only, HTML-escaped, matches in <mark>. Archived articles are left out unless asked for.
 */
interface Row {
  id: string;
  space_id: string;
  collection_id: string | null;
  title: string;
  slug: string;
  kind: string;
  status: string;
  rank: number;
  fuzzy: boolean;
  updated_at: Date;
  snippet: string;
}

export async function searchArticles(em: Em, props: SearchProps): Promise<SearchHit[]> {
  const scope = { ...(props.spaceId ? { id: props.spaceId } : {}), ...(props.tenantId ? { tenantId: props.tenantId } : {}) };
  const spaces = await em.find(KnowledgeSpace, scope, { filters: false, fields: ['language'] });
  const languages = [...new Set(spaces.map((s) => s.language))];
  if (!languages.length) return [];
  const query = languages.map(() => `websearch_to_tsquery(?::regconfig, ?)`).join(' || ');
  const queryParams = languages.flatMap((l) => [l, props.q]);
  const status = props.publishedOnly ? 'published' : (props.status ?? null);
  const where = `${props.tenantId ? 'a.tenant_id = ?' : 'true'} and ${props.spaceId ? 'a.space_id = ?' : 'true'} and ${status ? 'a.status = ?' : `a.status <> 'archived'`}`;
  const whereParams = [...(props.tenantId ? [props.tenantId] : []), ...(props.spaceId ? [props.spaceId] : []), ...(status ? [status] : [])];
  // Full-text hits first. Only a bounded candidate set is ranked (ts_rank_cd reads each candidate's whole tsvector,
  // and a common word matches thousands of articles): every title match (weight A, its own GIN index) up to
  // TITLE_CANDIDATES, plus the first body matches of the GIN bitmap up to bodyCandidates; snippets on the page's hits only.
  const bodyCandidates = Math.max(BODY_CANDIDATES, 5 * props.limit);
  const rows = await em.execute<Row[]>(
    `with q as (select (${query}) as query),
          candidates as (
            (select a.id from knowledge_articles a, q where ${where} and knowledge_search_vector(a.language, a.title, '') @@ q.query limit ?)
            union
            (select a.id from knowledge_articles a, q where ${where} and a.search_vector @@ q.query limit ?)),
          hits as (
            select a.id, a.space_id, a.collection_id, a.title, a.slug, a.kind, a.status, a.updated_at, a.language, a.body_text,
                   ts_rank_cd(a.search_vector, q.query, 1)::float8 as rank
            from candidates c join knowledge_articles a on a.id = c.id, q
            order by rank desc, a.id
            limit ?)
     select h.id, h.space_id, h.collection_id, h.title, h.slug, h.kind, h.status, h.updated_at, h.rank, false as fuzzy,
            ts_headline(h.language::regconfig, left(h.body_text, 20000), q.query, 'StartSel=${OPEN}, StopSel=${CLOSE}, MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "') as snippet
     from hits h, q
     order by h.rank desc, h.id`,
    [...queryParams, ...whereParams, TITLE_CANDIDATES, ...whereParams, bodyCandidates, props.limit],
  );
  // Then, when the page is not full, titles similar to the query (a typo): pg_trgm word similarity, GIN-indexed.
  if (rows.length < props.limit) {
    const fuzzy = await em.execute<Row[]>(
      `select a.id, a.space_id, a.collection_id, a.title, a.slug, a.kind, a.status, a.updated_at, (word_similarity(?, a.title) * 0.01)::float8 as rank, true as fuzzy, a.excerpt as snippet
       from knowledge_articles a
       where ${where} and ? <% a.title and a.id <> all(?::uuid[])
       order by word_similarity(?, a.title) desc, a.id
       limit ?`,
      [props.q, ...whereParams, props.q, `{${rows.map((r) => r.id).join(',')}}`, props.q, props.limit - rows.length],
    );
    rows.push(...fuzzy);
  }
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
