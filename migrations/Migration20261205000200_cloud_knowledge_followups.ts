import { Migration } from '@mikro-orm/migrations';

/**
 * Knowledge statistics: the unique keys the flush upserts on include the organisation, so a count recorded for
 * one organisation can never be added to another's row (the key was the space alone).
 */
export class Migration20261205000200_cloud_knowledge_followups extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop index "knowledge_daily_stats_unique";`);
    this.addSql(
      `create unique index "knowledge_daily_stats_unique" on "knowledge_daily_stats" ("tenant_id", "space_id", "day", coalesce("article_id", '00000000-0000-0000-0000-000000000000'));`,
    );
    this.addSql(
      `alter table "knowledge_search_misses" drop constraint "knowledge_search_misses_space_id_day_query_unique";`,
    );
    this.addSql(
      `alter table "knowledge_search_misses" add constraint "knowledge_search_misses_tenant_id_space_id_day_query_unique" unique ("tenant_id", "space_id", "day", "query");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "knowledge_search_misses" drop constraint "knowledge_search_misses_tenant_id_space_id_day_query_unique";`,
    );
    this.addSql(
      `alter table "knowledge_search_misses" add constraint "knowledge_search_misses_space_id_day_query_unique" unique ("space_id", "day", "query");`,
    );
    this.addSql(`drop index "knowledge_daily_stats_unique";`);
    this.addSql(
      `create unique index "knowledge_daily_stats_unique" on "knowledge_daily_stats" ("space_id", "day", coalesce("article_id", '00000000-0000-0000-0000-000000000000'));`,
    );
  }
}
