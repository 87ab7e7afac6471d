import { Migration } from '@mikro-orm/migrations';

/**
 * The rows of a spreadsheet import that matched existing customers and what the import did with each (created
 * anyway, skipped, or updated the customer: `duplicates: 'update'`). A column with a constant default: no rewrite.
 */
export class Migration20261213080100_crm_import_matches extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "crm_imports" add column "matches" jsonb not null default '[]';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "crm_imports" drop column "matches";`);
  }
}
