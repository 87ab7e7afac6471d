import { Migration } from '@mikro-orm/migrations';

/**
 * The customer import merges the GIN pending lists of crm_customers after its upserts (importCustomers.ts), and
 * gin_clean_pending_list() is for the index's owner only: the worker's role reads and writes rows and owns
 * nothing (README, "Database roles"). This function runs it as its owner, the schema's, for these four indexes
 * and nothing else (search_path pinned, no argument); merging a pending list changes no data.
 */
export class Migration20261210000100_crm_gin_clean_definer extends Migration {
  override async up(): Promise<void> {
    this
      .addSql(`create function "crm_customers_clean_gin_pending"() returns void language sql security definer set search_path = pg_catalog, public as $$
      select gin_clean_pending_list(i::regclass) from unnest(array['public.crm_customers_roles_gin', 'public.crm_customers_tags_gin', 'public.crm_customers_custom_gin', 'public.crm_customers_search_trgm']) i
    $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop function "crm_customers_clean_gin_pending"();`);
  }
}
