import { Migration } from '@mikro-orm/migrations';

/**
 * Mail: an outbox row may end `capped`, not sent because its recipient had had MAIL_RECIPIENT_CAP_PER_HOUR mails
 * anyone can cause in the last hour (domain/identity/capRecipient.ts). The new check admits every status the old
 * one did, so checking the existing rows only reads them. Down: capped mails become failed (never sent either),
 * with the reason in their error.
 */
export class Migration20261210000500_mail_recipient_cap extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "mail_messages" drop constraint if exists "mail_messages_status_check";`);
    this.addSql(
      `alter table "mail_messages" add constraint "mail_messages_status_check" check("status" in ('queued', 'sent', 'kept', 'failed', 'capped'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `update "mail_messages" set "status" = 'failed', "error" = 'not sent: over the recipient cap' where "status" = 'capped';`,
    );
    this.addSql(`alter table "mail_messages" drop constraint if exists "mail_messages_status_check";`);
    this.addSql(
      `alter table "mail_messages" add constraint "mail_messages_status_check" check("status" in ('queued', 'sent', 'kept', 'failed'));`,
    );
  }
}
