import { Migration } from '@mikro-orm/migrations';

/**
 * The reconciliation (the clock's relay, every minute) looks up accepted work not applied yet; partial indexes keep
 * each look-up to the few open rows, however large the tables grow:
 *  - stripe_events stored and not processed;
 *  - crm_imports queued or running;
 *  - inv_einvoice_submissions queued.
 * They hold only open rows (a handful), so building them takes the time of one scan of each table.
 */
export class Migration20261210000200_jobs_reconciliation extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "stripe_events_unprocessed_index" on "stripe_events" ("received_at") where "processed_at" is null;`,
    );
    this.addSql(
      `create index "crm_imports_open_index" on "crm_imports" ("created_at") where "status" in ('queued', 'running');`,
    );
    this.addSql(
      `create index "inv_einvoice_submissions_queued_index" on "inv_einvoice_submissions" ("updated_at") where "status" = 'queued';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "inv_einvoice_submissions_queued_index";`);
    this.addSql(`drop index "crm_imports_open_index";`);
    this.addSql(`drop index "stripe_events_unprocessed_index";`);
  }
}
