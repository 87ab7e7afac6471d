import type { ArticleStatus } from '../../entities/knowledge/article';
import type { Orm } from '../../lib/db';
import type { Services } from '../services';
import { CLOSE, fullTextHits, languagesInScope, OPEN, similarTitles, type SearchScope } from './store/search';
import { cachedSearch, type Memo } from './store/searchCache';

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

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A ts_headline snippet as HTML: its text escaped, the matches (between OPEN and CLOSE) in <mark>. */
export const snippetHtml = (headline: string | null): string =>
  escapeHtml(headline ?? '')
    .replaceAll(OPEN, '<mark>')
    .replaceAll(CLOSE, '</mark>');

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
 * The statements (store/search.ts) are prepared (named, planned once per connection) and answers cached per
 * organisation until its next write (store/searchCache.ts).
 *
 * Searches one organisation (and a space of it); answers come from a small cache while the organisation's
 * articles do not change.
 */
export async function searchArticles(services: Services, props: SearchProps): Promise<SearchHit[]> {
  const status = props.publishedOnly ? 'published' : (props.status ?? null);
  const key = `${props.spaceId ?? ''}|${status ?? ''}|${props.limit}|${props.q}`;
  return cachedSearch(services, props.tenantId, key, (memo) => runSearch(services.orm, props, status, memo));
}

async function runSearch(orm: Orm, props: SearchProps, status: string | null, memo: Memo): Promise<SearchHit[]> {
  const scope: SearchScope = [props.tenantId, props.spaceId ?? null, status];
  // A space write bumps the search version, so the languages hold while it does: no round trip per search.
  const languages = await memo(`languages|${props.spaceId ?? ''}`, () => languagesInScope(orm, scope));
  if (!languages.length) return [];
  const bounds = {
    titleCandidates: TITLE_CANDIDATES,
    bodyCandidates: Math.max(BODY_CANDIDATES, 5 * props.limit),
    limit: props.limit,
  };
  const rows = await fullTextHits(orm, scope, props.q, bounds, languages);
  // Then, when the page is not full, titles similar to the query.
  if (rows.length < props.limit)
    rows.push(
      ...(await similarTitles(
        orm,
        scope,
        props.q,
        rows.map((r) => r.id),
        props.limit - rows.length,
      )),
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
    snippet: snippetHtml(r.snippet),
  }));
}
