import { Migration } from '@mikro-orm/migrations';

/**
 * Background-job follow-ups:
 *  - inv_einvoice_submissions.polled_at: when the lifecycle poll last read (or tried to read) a document. The poll
 *    takes the open documents least recently polled first (never polled first) and stamps them, so every open
 *    document is read in turn however many there are, instead of the oldest ones with no news holding every place.
 */
export class Migration20261206000300_jobs_followups extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "inv_einvoice_submissions" add column "polled_at" timestamptz null;`);
    this.addSql(
      `create index "inv_einvoice_submissions_poll_index" on "inv_einvoice_submissions" ("polled_at" asc nulls first, "id") where "platform_id" is not null and "status" not in ('rejected', 'refused', 'paid', 'failed');`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "inv_einvoice_submissions_poll_index";`);
    this.addSql(`alter table "inv_einvoice_submissions" drop column "polled_at";`);
  }
}
