import { Migration } from '@mikro-orm/migrations';

/** The text-search configurations a space may use (entities/knowledge/space.ts at this migration) and their stemming dictionary. */
const languages: [string, string][] = [
  ['english', 'english_stem'],
  ['french', 'french_stem'],
  ['german', 'german_stem'],
  ['spanish', 'spanish_stem'],
  ['italian', 'italian_stem'],
  ['portuguese', 'portuguese_stem'],
  ['dutch', 'dutch_stem'],
  ['simple', 'simple'],
];

/** The search indexes over the tsvector (as created by …20261202000800_knowledge), rebuilt around the function's change. */
const vectorIndexes = [
  `create index "knowledge_articles_search_index" on "knowledge_articles" using gin ("search_vector") with (fastupdate = off);`,
  `create index "knowledge_articles_title_search_index" on "knowledge_articles" using gin (knowledge_search_vector(language, title, '')) with (fastupdate = off);`,
];

/**
 * Knowledge search, accent-insensitive: people type "equipe" for "équipe" and "strasse" for "Straße". The unaccent
 * extension (a trusted extension) and, per language, a text-search configuration `<language>_unaccent`: a copy of
 * PostgreSQL's with the unaccent dictionary before the stemmer on the words that can carry accents (word, hword,
 * hword_part; before simple on words with digits: numword, numhword, hword_numpart; the ascii token types have
 * none), so "équipe" and "equipe" index and query as the same lexeme while ts_headline still shows (and marks) the
 * text as written. `knowledge_search_config(language)` names a space
 * language's configuration, for the generated column, the title index and the queries (domain/knowledge/
 * searchArticles.ts). The trigram title index moves to `immutable_unaccent(title)` (unaccent() is only STABLE), so
 * the typo match compares unaccented text on both sides. Function bodies name their schema (public), so they
 * resolve under any search_path (pg_restore's included). Every vector is recomputed once (a full rewrite of
 * knowledge_articles, as …20261203000100 did), with the indexes dropped meanwhile and built again after.
 * Down restores the functions, vectors and indexes as they were and drops what up created.
 */
export class Migration20261209000000_knowledge_search_unaccent extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create extension if not exists unaccent with schema public;`);
    this.addSql(
      `create function public.immutable_unaccent(text) returns text language sql immutable parallel safe strict as $$ select public.unaccent('public.unaccent'::regdictionary, $1) $$;`,
    );
    for (const [language, stem] of languages) {
      this.addSql(`create text search configuration public.${language}_unaccent (copy = pg_catalog.${language});`);
      this.addSql(
        `alter text search configuration public.${language}_unaccent alter mapping for hword, hword_part, word with public.unaccent, pg_catalog.${stem};`,
      );
      this.addSql(
        `alter text search configuration public.${language}_unaccent alter mapping for numhword, hword_numpart, numword with public.unaccent, pg_catalog.simple;`,
      );
    }
    // Immutable for the same reason as knowledge_search_vector: the language is one the entity allows, each with its configuration.
    this.addSql(
      `create function public.knowledge_search_config(lang text) returns regconfig language sql immutable parallel safe strict as $$ select ('public.' || lang || '_unaccent')::regconfig $$;`,
    );
    this.addSql(`drop index "knowledge_articles_search_index";`);
    this.addSql(`drop index "knowledge_articles_title_search_index";`);
    this.addSql(`drop index "knowledge_articles_title_trgm_index";`);
    this.addSql(
      `create or replace function "knowledge_search_vector"(lang text, title text, body text) returns tsvector language sql immutable parallel safe as $$ select setweight(to_tsvector(public.knowledge_search_config(lang), coalesce(title, '')), 'A') || setweight(to_tsvector(public.knowledge_search_config(lang), left(coalesce(body, ''), 200000)), 'B') $$;`,
    );
    this.addSql(`update "knowledge_articles" set "search_vector" = default;`);
    for (const index of vectorIndexes) this.addSql(index);
    this.addSql(
      `create index "knowledge_articles_title_trgm_index" on "knowledge_articles" using gin (public.immutable_unaccent("title") gin_trgm_ops) with (fastupdate = off);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "knowledge_articles_search_index";`);
    this.addSql(`drop index "knowledge_articles_title_search_index";`);
    this.addSql(`drop index "knowledge_articles_title_trgm_index";`);
    this.addSql(
      `create or replace function "knowledge_search_vector"(lang text, title text, body text) returns tsvector language sql immutable parallel safe as $$ select setweight(to_tsvector(lang::regconfig, coalesce(title, '')), 'A') || setweight(to_tsvector(lang::regconfig, left(coalesce(body, ''), 200000)), 'B') $$;`,
    );
    this.addSql(`update "knowledge_articles" set "search_vector" = default;`);
    for (const index of vectorIndexes) this.addSql(index);
    this.addSql(
      `create index "knowledge_articles_title_trgm_index" on "knowledge_articles" using gin ("title" gin_trgm_ops) with (fastupdate = off);`,
    );
    this.addSql(`drop function public.knowledge_search_config(text);`);
    for (const [language] of languages) this.addSql(`drop text search configuration public.${language}_unaccent;`);
    this.addSql(`drop function public.immutable_unaccent(text);`);
    this.addSql(`drop extension unaccent;`);
  }
}
