import type { ArticleStatus } from '../../entities/knowledge/article';
import { searchLanguages } from '../../entities/knowledge/space';
import type { Orm } from '../../lib/db';
import { preparedRead } from '../../lib/lean';
import type { Services } from '../services';
import { cachedSearch, type Memo } from './searchCache';

export interface SearchProps {
  q: string;
  limit: number;
  /** The organisation searched (on the public surface, the space's). */
  tenantId: string;
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
/** ts_headline parses all the text it is given (~30 ns a character): a longer body gives it this many characters... */
const SNIPPET_WINDOW = 1000;
/** ...from this many before the first occurrence of a query word (searched in the first 20,000 characters), or from its start. */
const SNIPPET_LEAD = 200;
/** A body without a query word (a title match) shows its first words (MinWords): ts_headline gets this many characters. */
const SNIPPET_HEAD = 300;
const OPEN = '\u0001';
const CLOSE = '\u0002';
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Full-text search over titles (weight A) and text (weight B) with each space's language, ranked by
 * ts_rank_cd over a bounded candidate set (all title matches, up to 500, and the first 100 body matches: ranking
 * every match of a common word costs a tsvector read per match); when those leave the page short, pg_trgm word similarity on titles fills it, so a typo ("instllation") still finds
 * "Installation". The query is parsed with websearch_to_tsquery (quotes, OR, -word) in every language of the
 * spaces in scope, OR-ed into one constant tsquery so the GIN index serves it. Snippets come from ts_headline
 * on the page's hits only, HTML-escaped, matches in <mark>; ts_headline gets a window of a long body around the first
 * occurrence of a query word, and only the first words of a body without one (a title match), not the whole text.
 * Accents are ignored on both sides: the configurations are each language's `<language>_unaccent` (named by
 * knowledge_search_config, migration …20261209000000_knowledge_search_unaccent: unaccent before the stemmer, so
 * "equipe" finds "équipe" and ts_headline marks "équipe"), and the trigram match compares immutable_unaccent() of
 * the query and of the title (the trigram index is on the latter).
 * Archived articles are left out unless asked for.
 * The statements are prepared (named, planned once per connection) and answers cached per organisation until
 * its next write (searchCache.ts).
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

// Named prepared statements (lib/lean.ts preparedRead): planning this query costs more than running it.
// Parameters: $1 tenant, $2 space or null, $3 status or null (null: all but archived), then the statement's own.
const SCOPE = `a.tenant_id = $1 and ($2::uuid is null or a.space_id = $2::uuid) and (case when $3::text is null then a.status <> 'archived' else a.status = $3::text end)`;

const languagesInScope = preparedRead<{ language: string }>(`select distinct language from knowledge_spaces where tenant_id = $1 and ($2::uuid is null or id = $2::uuid)`);

/**
 * Full-text hits first. Only a bounded candidate set is ranked (ts_rank_cd reads each candidate's whole tsvector,
 * and a common word matches thousands of articles): every title match (weight A, its own GIN index) up to $5,
 * plus the first body matches of the GIN bitmap up to $6, ranked where the index scan reads them (an article
 * found by both is the same id and rank, so the union keeps one); only the page ($7) is read again, for its
 * details and snippets (the tsvector sits in the heap row, migration …20261203000100, so ranking reads no TOAST). $4 is the query,
 * parsed in the unaccented configuration of each of the `languages` from $8 on, OR-ed into one constant tsquery (one statement per
 * number of languages).
 */
const fullTextSql = (languages: number) => `with q0 as (select (${Array.from({ length: languages }, (_, i) => `websearch_to_tsquery(knowledge_search_config($${8 + i}::text), $4::text)`).join(' || ')}) as query),
      q as (select query, array(select (regexp_matches(querytree(query), '''((?:[^'']|'''')+)''', 'g'))[1]) as words from q0),
      ranked as (
        (select a.id, ts_rank_cd(a.search_vector, q.query, 1)::float8 as rank from knowledge_articles a, q where ${SCOPE} and knowledge_search_vector(a.language, a.title, '') @@ q.query limit $5)
        union
        (select a.id, ts_rank_cd(a.search_vector, q.query, 1)::float8 as rank from knowledge_articles a, q where ${SCOPE} and a.search_vector @@ q.query limit $6)),
      -- Materialised (as placed): the body (out of line, in TOAST) is fetched and searched once per hit, not once per use below.
      -- in_body: a query word is in the text, not only in the title (the article's own tsvector says so, stemmed as indexed).
      hits as materialized (
        select a.id, a.space_id, a.collection_id, a.title, a.slug, a.kind, a.status, a.updated_at, a.language, left(a.body_text, 20000) as body, r.rank,
               tsvector_to_array(ts_filter(a.search_vector, '{b}')) && q.words as in_body
        from (select id, rank from ranked order by rank desc, id limit $7) r join knowledge_articles a on a.id = r.id, q),
      -- Where ts_headline's text starts (at) and about how long it is (span): without a match it shows the first words only.
      -- The words are unaccented lexemes: a word written with accents in the body is found in its unaccented text (unaccent
      -- keeps positions, but for ligatures such as œ or ß, a character more each, which the lead absorbs).
      placed as materialized (
        select h.*, case when h.in_body then ${SNIPPET_WINDOW} else ${SNIPPET_HEAD} end as span,
               case when not h.in_body or length(h.body) <= ${SNIPPET_WINDOW} then 1
               else greatest(1, coalesce((select min(nullif(strpos(lower(h.body), word), 0)) from unnest(q.words) word),
                 (select min(nullif(strpos(lower(immutable_unaccent(h.body)), word), 0)) from unnest(q.words) word), 1) - ${SNIPPET_LEAD}) end as at
        from hits h, q)
 select h.id, h.space_id, h.collection_id, h.title, h.slug, h.kind, h.status, h.updated_at, h.rank, false as fuzzy,
        ts_headline(knowledge_search_config(h.language), case when h.at = 1 and length(h.body) <= h.span then h.body
          else substr(h.body, w.start, h.span + coalesce(nullif(strpos(substr(h.body, w.start + h.span, 50), ' '), 0), 51) - 1) end,
          q.query, 'StartSel=${OPEN}, StopSel=${CLOSE}, MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "') as snippet
 from placed h, q,
      -- The text starts and ends at a space, so it shows whole words.
      lateral (select case when h.at = 1 then 1 else h.at + strpos(substr(h.body, h.at, 50), ' ') end as start) w
 order by h.rank desc, h.id`;
const fullText = searchLanguages.map((_, i) => preparedRead<Row>(fullTextSql(i + 1)));

// Titles similar to the query (a typo): pg_trgm word similarity of the unaccented texts, GIN-indexed on immutable_unaccent(title); $5 the ids already found, $6 how many more.
const similarTitles = preparedRead<Row>(
  `select a.id, a.space_id, a.collection_id, a.title, a.slug, a.kind, a.status, a.updated_at, (word_similarity(immutable_unaccent($4::text), immutable_unaccent(a.title)) * 0.01)::float8 as rank, true as fuzzy, a.excerpt as snippet
   from knowledge_articles a
   where ${SCOPE} and immutable_unaccent($4::text) <% immutable_unaccent(a.title) and a.id <> all($5::uuid[])
   order by word_similarity(immutable_unaccent($4::text), immutable_unaccent(a.title)) desc, a.id
   limit $6`,
);

/** Searches one organisation (and a space of it); answers come from a small cache while the organisation's articles do not change (searchCache.ts). */
export async function searchArticles(services: Services, props: SearchProps): Promise<SearchHit[]> {
  const status = props.publishedOnly ? 'published' : (props.status ?? null);
  const key = `${props.spaceId ?? ''}|${status ?? ''}|${props.limit}|${props.q}`;
  return cachedSearch(services, props.tenantId, key, (memo) => runSearch(services.orm, props, status, memo));
}

async function runSearch(orm: Orm, props: SearchProps, status: string | null, memo: Memo): Promise<SearchHit[]> {
  const scope = [props.tenantId, props.spaceId ?? null, status];
  // A space write bumps the search version, so the languages hold while it does: no round trip per search.
  const languages = await memo(`languages|${props.spaceId ?? ''}`, async () => (await languagesInScope(orm, scope.slice(0, 2))).map((l) => l.language));
  if (!languages.length) return [];
  const bodyCandidates = Math.max(BODY_CANDIDATES, 5 * props.limit);
  const rows = await fullText[languages.length - 1](orm, [...scope, props.q, TITLE_CANDIDATES, bodyCandidates, props.limit, ...languages]);
  // Then, when the page is not full, titles similar to the query.
  if (rows.length < props.limit) rows.push(...(await similarTitles(orm, [...scope, props.q, rows.map((r) => r.id), props.limit - rows.length])));
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
