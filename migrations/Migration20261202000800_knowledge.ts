import { Migration } from '@mikro-orm/migrations';

/**
 * Knowledge: spaces (slug unique across every organisation), collections, articles (kind fixed by a trigger;
 * a generated tsvector column over title and text with the space's language, GIN-indexed, and a GIN expression index
 * on the title's tsvector alone, so search ranks every title match without ranking every body match; a pg_trgm index on
 * titles for typos), append-only versions, comments, blog subscribers and reading statistics.
 */
export class Migration20261202000800_knowledge extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create extension if not exists pg_trgm;`);
    // Immutable, so a generated column may use it: the language is one of the configurations the entity allows.
    this.addSql(
      `create function "knowledge_search_vector"(lang text, title text, body text) returns tsvector language sql immutable parallel safe as $$ select setweight(to_tsvector(lang::regconfig, coalesce(title, '')), 'A') || setweight(to_tsvector(lang::regconfig, left(coalesce(body, ''), 200000)), 'B') $$;`,
    );
    this.addSql(
      `create table "knowledge_articles" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "space_id" uuid not null, "collection_id" uuid null, "title" varchar(200) not null, "slug" varchar(160) not null, "kind" text check ("kind" in ('rich', 'developer')) not null, "status" text check ("status" in ('draft', 'review', 'published', 'archived')) not null default 'draft', "sort_order" int not null default 0, "content" jsonb null, "content_markdown" text null, "body_text" text not null default '', "excerpt" varchar(300) not null default '', "language" text check ("language" in ('english', 'french', 'german', 'spanish', 'italian', 'portuguese', 'dutch', 'simple')) not null default 'english', "version" int not null default 1, "author_id" uuid null, "updated_by" uuid null, "published_at" timestamptz null, "mailed_at" timestamptz null, "updated_at" timestamptz not null, "search_vector" tsvector generated always as (knowledge_search_vector(language, title, body_text)) stored null, constraint "knowledge_articles_pkey" primary key ("id"), constraint knowledge_articles_content_check check (("kind" = 'rich' and "content_markdown" is null) or ("kind" = 'developer' and "content" is null)));`,
    );
    this.addSql(
      `create index "knowledge_articles_space_id_sort_order_index" on "knowledge_articles" ("space_id", "sort_order");`,
    );
    this.addSql(
      `create index "knowledge_articles_tenant_id_status_id_index" on "knowledge_articles" ("tenant_id", "status", "id");`,
    );
    // fastupdate off: without it, inserted entries wait in each GIN index's pending list (up to 4 MB, merged only by
    // vacuum) and every search scans that list linearly; articles are written rarely and searched often.
    this.addSql(
      `create index "knowledge_articles_search_index" on "knowledge_articles" using gin ("search_vector") with (fastupdate = off);`,
    );
    this.addSql(
      `create index "knowledge_articles_title_search_index" on "knowledge_articles" using gin (knowledge_search_vector(language, title, '')) with (fastupdate = off);`,
    );
    this.addSql(
      `create index "knowledge_articles_title_trgm_index" on "knowledge_articles" using gin ("title" gin_trgm_ops) with (fastupdate = off);`,
    );
    this.addSql(
      `alter table "knowledge_articles" add constraint "knowledge_articles_space_id_slug_unique" unique ("space_id", "slug");`,
    );
    this.addSql(
      `create table "knowledge_article_versions" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "article_id" uuid not null, "number" int not null, "title" varchar(200) not null, "content" jsonb null, "content_markdown" text null, "reason" text check ("reason" in ('created', 'edited', 'restored')) not null, "restored_from" int null, "author_id" uuid null, "api_key_id" uuid null, constraint "knowledge_article_versions_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "knowledge_article_versions" add constraint "knowledge_article_versions_article_id_number_unique" unique ("article_id", "number");`,
    );
    this.addSql(
      `create table "knowledge_collections" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "space_id" uuid not null, "name" varchar(120) not null, "description" varchar(1000) null, "sort_order" int not null default 0, "updated_at" timestamptz not null, constraint "knowledge_collections_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "knowledge_collections_space_id_sort_order_index" on "knowledge_collections" ("space_id", "sort_order");`,
    );
    this.addSql(
      `create table "knowledge_comments" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "article_id" uuid not null, "author_id" uuid not null, "body" varchar(5000) not null, "edited_at" timestamptz null, constraint "knowledge_comments_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "knowledge_comments_article_id_id_index" on "knowledge_comments" ("article_id", "id");`);
    this.addSql(
      `create table "knowledge_daily_stats" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "space_id" uuid not null, "article_id" uuid null, "day" date not null, "views" int not null default 0, "readers" int not null default 0, constraint "knowledge_daily_stats_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create unique index "knowledge_daily_stats_unique" on "knowledge_daily_stats" ("space_id", "day", coalesce("article_id", '00000000-0000-0000-0000-000000000000'));`,
    );
    this.addSql(
      `create table "knowledge_search_misses" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "space_id" uuid not null, "day" date not null, "query" varchar(200) not null, "count" int not null default 0, constraint "knowledge_search_misses_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "knowledge_search_misses" add constraint "knowledge_search_misses_space_id_day_query_unique" unique ("space_id", "day", "query");`,
    );
    this.addSql(
      `create table "knowledge_spaces" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "name" varchar(120) not null, "slug" varchar(80) not null, "mode" text check ("mode" in ('internal', 'public_kb', 'blog')) not null, "description" varchar(1000) null, "language" text check ("language" in ('english', 'french', 'german', 'spanish', 'italian', 'portuguese', 'dutch', 'simple')) not null default 'english', "created_by" uuid null, "updated_at" timestamptz not null, constraint "knowledge_spaces_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "knowledge_spaces" add constraint "knowledge_spaces_slug_unique" unique ("slug");`);
    this.addSql(`create index "knowledge_spaces_tenant_id_id_index" on "knowledge_spaces" ("tenant_id", "id");`);
    this.addSql(`create index "knowledge_spaces_mode_id_index" on "knowledge_spaces" ("mode", "id");`);
    this.addSql(
      `create table "knowledge_subscribers" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "space_id" uuid not null, "email" varchar(254) not null, "status" text check ("status" in ('pending', 'confirmed', 'unsubscribed')) not null default 'pending', "confirmed_at" timestamptz null, "unsubscribed_at" timestamptz null, constraint "knowledge_subscribers_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "knowledge_subscribers_space_id_status_id_index" on "knowledge_subscribers" ("space_id", "status", "id");`,
    );
    this.addSql(
      `create unique index "knowledge_subscribers_space_email_unique" on "knowledge_subscribers" ("space_id", lower("email"));`,
    );

    // The kind of an article never changes; versions are never rewritten (restoring writes a new one).
    this.addSql(
      `create function "knowledge_article_kind_fixed"() returns trigger language plpgsql as $$ begin if new.kind <> old.kind then raise exception 'the kind of an article is immutable (% -> %)', old.kind, new.kind using errcode = 'check_violation'; end if; return new; end $$;`,
    );
    this.addSql(
      `create trigger "knowledge_articles_kind_fixed" before update of "kind" on "knowledge_articles" for each row execute function "knowledge_article_kind_fixed"();`,
    );
    this.addSql(
      `create function "knowledge_version_append_only"() returns trigger language plpgsql as $$ begin raise exception 'knowledge_article_versions is append-only: % refused', TG_OP using errcode = 'restrict_violation'; end $$;`,
    );
    this.addSql(
      `create trigger "knowledge_article_versions_append_only" before update on "knowledge_article_versions" for each row execute function "knowledge_version_append_only"();`,
    );
  }

  override async down(): Promise<void> {
    for (const table of [
      'knowledge_search_misses',
      'knowledge_daily_stats',
      'knowledge_subscribers',
      'knowledge_comments',
      'knowledge_article_versions',
      'knowledge_articles',
      'knowledge_collections',
      'knowledge_spaces',
    ]) {
      this.addSql(`drop table if exists "${table}" cascade;`);
    }
    this.addSql('drop function if exists "knowledge_article_kind_fixed"();');
    this.addSql('drop function if exists "knowledge_version_append_only"();');
    this.addSql('drop function if exists "knowledge_search_vector"(text, text, text);');
  }
}
