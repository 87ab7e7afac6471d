import { Migration } from '@mikro-orm/migrations';

/**
 * The webhook log's retention (domain/webhooks/pruneWebhookLog.ts) deletes an event once no delivery refers to
 * it: an index on webhook_deliveries.event_id answers that without a scan. (Not built concurrently: the
 * migrations run in one transaction, allOrNothing.)
 */
export class Migration20261213070000_webhook_log_retention extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "webhook_deliveries_event_id_index" on "webhook_deliveries" ("event_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "webhook_deliveries_event_id_index";`);
  }
}
