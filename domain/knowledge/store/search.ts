import { searchLanguages } from '../../../entities/knowledge/space';
import type { Orm } from '../../../lib/db';
import { preparedRead } from '../../../lib/lean';

/**
 * The search statements (the rules they implement are described in searchArticles.ts). Named prepared
 * statements (lib/lean.ts preparedRead): planning these queries costs more than running them.
 */

/** ts_headline parses all the text it is given (~30 ns a character): a longer body gives it this many characters... */
const SNIPPET_WINDOW = 1000;
/** ...from this many before the first occurrence of a query word (searched in the first 20,000 characters), or from its start. */
const SNIPPET_LEAD = 200;
/** A body without a query word (a title match) shows its first words (MinWords): ts_headline gets this many characters. */
const SNIPPET_HEAD = 300;
/** What ts_headline puts around a match (control characters: the text is HTML-escaped after). */
export const OPEN = '\u0001';
export const CLOSE = '\u0002';

export interface SearchRow {
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

// Parameters: $1 tenant, $2 space or null, $3 status or null (null: all but archived), then the statement's own.
const SCOPE = `a.tenant_id = $1 and ($2::uuid is null or a.space_id = $2::uuid) and (case when $3::text is null then a.status <> 'archived' else a.status = $3::text end)`;

const languagesSql = preparedRead<{ language: string }>(
  `select distinct language from knowledge_spaces where tenant_id = $1 and ($2::uuid is null or id = $2::uuid)`,
);

/**
 * Full-text hits first. Only a bounded candidate set is ranked (ts_rank_cd reads each candidate's whole tsvector,
 * and a common word matches thousands of articles): every title match (weight A, its own GIN index) up to $5,
 * plus the first body matches of the GIN bitmap up to $6, ranked where the index scan reads them (an article
 * found by both is the same id and rank, so the union keeps one); only the page ($7) is read again, for its
 * details and snippets (the tsvector sits in the heap row, migration …20261203000100, so ranking reads no TOAST). $4 is the query,
 * parsed in the unaccented configuration of each of the `languages` from $8 on, OR-ed into one constant tsquery (one statement per
 * number of languages).
 */
const fullTextSql = (
  languages: number,
) => `with q0 as (select (${Array.from({ length: languages }, (_, i) => `websearch_to_tsquery(knowledge_search_config($${8 + i}::text), $4::text)`).join(' || ')}) as query),
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
const fullText = searchLanguages.map((_, i) => preparedRead<SearchRow>(fullTextSql(i + 1)));

// Titles similar to the query (a typo): pg_trgm word similarity of the unaccented texts, GIN-indexed on immutable_unaccent(title); $5 the ids already found, $6 how many more.
const similarTitlesSql = preparedRead<SearchRow>(
  `select a.id, a.space_id, a.collection_id, a.title, a.slug, a.kind, a.status, a.updated_at, (word_similarity(immutable_unaccent($4::text), immutable_unaccent(a.title)) * 0.01)::float8 as rank, true as fuzzy, a.excerpt as snippet
   from knowledge_articles a
   where ${SCOPE} and immutable_unaccent($4::text) <% immutable_unaccent(a.title) and a.id <> all($5::uuid[])
   order by word_similarity(immutable_unaccent($4::text), immutable_unaccent(a.title)) desc, a.id
   limit $6`,
);

/** $1 tenant, $2 space or null, $3 status or null (null: all but archived). */
export type SearchScope = [tenantId: string, spaceId: string | null, status: string | null];

/** The search languages of the spaces in scope (one organisation, or one space of it). */
export const languagesInScope = async (orm: Orm, [tenantId, spaceId]: SearchScope): Promise<string[]> =>
  (await languagesSql(orm, [tenantId, spaceId])).map((l) => l.language);

/** Ranked full-text hits of `query` in these languages: at most `titleCandidates` title and `bodyCandidates` body matches ranked, `limit` kept. */
export const fullTextHits = (
  orm: Orm,
  scope: SearchScope,
  query: string,
  bounds: { titleCandidates: number; bodyCandidates: number; limit: number },
  languages: string[],
): Promise<SearchRow[]> =>
  fullText[languages.length - 1](orm, [
    ...scope,
    query,
    bounds.titleCandidates,
    bounds.bodyCandidates,
    bounds.limit,
    ...languages,
  ]);

/** Up to `limit` articles whose titles are similar to the query, other than `foundIds`. */
export const similarTitles = (
  orm: Orm,
  scope: SearchScope,
  query: string,
  foundIds: string[],
  limit: number,
): Promise<SearchRow[]> => similarTitlesSql(orm, [...scope, query, foundIds, limit]);
