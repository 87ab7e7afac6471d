import { Migration } from '@mikro-orm/migrations';

/**
 * Knowledge search: keep each article's tsvector in its heap row. A tsvector of a few hundred words (~1.2 kB) is
 * the row's largest value, so with the default storage TOAST moved it out of line, and ranking a search's
 * candidates read each one through the TOAST index (3 buffers per candidate; ranking was ~40% of an uncached
 * search's PostgreSQL time). With `main` storage, TOAST moves the text columns (body, Markdown, HTML, read only
 * for the page's snippets and article reads) out first; a vector too large for the row even compressed (~2 kB)
 * still goes out of line. Existing rows are rewritten once (the generated column recomputed) so their vector moves in.
 */
export class Migration20261203000100_knowledge_search_inline extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "knowledge_articles" alter column "search_vector" set storage main;`);
    this.addSql(`update "knowledge_articles" set "search_vector" = default;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "knowledge_articles" alter column "search_vector" set storage extended;`);
  }
}
