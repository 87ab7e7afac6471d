import { Migration } from '@mikro-orm/migrations';

/**
 * Knowledge: the rendered, sanitised HTML of an article's content, stored when a version is written so a public
 * read renders nothing. Existing rows stay null (Markdown cannot be rendered in SQL); the first public read of
 * each renders and stores it.
 */
export class Migration20261202000830_knowledge_html extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "knowledge_articles" add column "content_html" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "knowledge_articles" drop column "content_html";`);
  }
}
