import { Migration } from '@mikro-orm/migrations';

/**
 * Knowledge: a subscriber remembers when its confirmation was last mailed, so that subscribing a pending address
 * again does not mail it each time (domain/knowledge/subscribe.ts). A nullable column without a default: added
 * without rewriting the table; existing subscribers have none (their next request mails them once).
 */
export class Migration20261210000600_knowledge_subscriber_confirmation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "knowledge_subscribers" add column "confirmation_mailed_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "knowledge_subscribers" drop column "confirmation_mailed_at";`);
  }
}
