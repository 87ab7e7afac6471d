import { Migration } from '@mikro-orm/migrations';

/**
 * Knowledge background work made replay-safe:
 * - knowledge_stats_flushes: the generations of Redis counts already added to the statistics tables, so a
 *   flush that committed but could not drop its counts from Redis does not add them again;
 * - knowledge_articles.mailing_after_subscriber_id: where a blog mailing stopped by an unpublication resumes
 *   at the next publication.
 */
export class Migration20261206000400_knowledge_identity_followups extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "knowledge_stats_flushes" ("id" uuid not null, "created_at" timestamptz not null, constraint "knowledge_stats_flushes_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "knowledge_stats_flushes_created_at_index" on "knowledge_stats_flushes" ("created_at");`);
    this.addSql(`alter table "knowledge_articles" add column "mailing_after_subscriber_id" uuid null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "knowledge_articles" drop column "mailing_after_subscriber_id";`);
    this.addSql(`drop table if exists "knowledge_stats_flushes" cascade;`);
  }
}
