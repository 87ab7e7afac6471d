import { Migration } from '@mikro-orm/migrations';

const LIVE = `where "trashed_at" is null and "purpose" = 'file'`;

/**
 * Drive search at 100,000 files (GET /api/cloud/folders/search): a trigram index answers "name contains q" without
 * reading every name; (tenant, lower(name), id) and (tenant, category, lower(name), id) give the page in its order, so
 * a broad filter stops at the page's end. Built concurrently, outside a transaction, so a live database keeps writing to cloud_nodes meanwhile; an
 * interrupted build's invalid index is dropped first. pg_trgm is already there for CRM and knowledge search.
 */
export class Migration20261219000100_cloud_search extends Migration {
  override isTransactional(): boolean {
    return false;
  }

  override async up(): Promise<void> {
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(`drop index concurrently if exists "cloud_nodes_name_trgm";`);
    this.addSql(
      `create index concurrently "cloud_nodes_name_trgm" on "cloud_nodes" using gin ("name" gin_trgm_ops) ${LIVE};`,
    );
    this.addSql(`drop index concurrently if exists "cloud_nodes_search";`);
    this.addSql(
      `create index concurrently "cloud_nodes_search" on "cloud_nodes" ("tenant_id", lower("name"), "id") ${LIVE};`,
    );
    this.addSql(`drop index concurrently if exists "cloud_nodes_search_category";`);
    this.addSql(
      `create index concurrently "cloud_nodes_search_category" on "cloud_nodes" ("tenant_id", "category", lower("name"), "id") ${LIVE};`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index concurrently if exists "cloud_nodes_search_category";`);
    this.addSql(`drop index concurrently if exists "cloud_nodes_name_trgm";`);
    this.addSql(`drop index concurrently if exists "cloud_nodes_search";`);
  }
}
