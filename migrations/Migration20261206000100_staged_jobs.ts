import { Migration } from '@mikro-orm/migrations';

/**
 * Jobs committed with the rows they work on, until enqueued (entities/jobs/stagedJob.ts), and the relay's index
 * of mails still waiting for their job.
 */
export class Migration20261206000100_staged_jobs extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "staged_jobs" ("id" uuid not null, "queue" varchar(100) not null, "job_id" varchar(400) not null, "payload" jsonb not null, "created_at" timestamptz not null, constraint "staged_jobs_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "staged_jobs_created_at_index" on "staged_jobs" ("created_at");`);
    this.addSql(
      `create index "mail_messages_queued_index" on "mail_messages" ("created_at") where "status" = 'queued';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "mail_messages_queued_index";`);
    this.addSql(`drop table if exists "staged_jobs" cascade;`);
  }
}
