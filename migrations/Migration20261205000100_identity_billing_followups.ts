import { Migration } from '@mikro-orm/migrations';

/**
 * Identity: one unaccepted invitation per (organisation, address), so concurrent invitations refresh one row
 * instead of leaving two links with different roles. Older duplicates are deleted first, keeping the newest,
 * which is the one re-inviting refreshed (the older links had stopped being offered). Billing: the open Checkout
 * Session of an organisation, expired at Stripe when another one is opened.
 */
export class Migration20261205000100_identity_billing_followups extends Migration {
  override async up(): Promise<void> {
    this.addSql(`delete from "invitations" older using "invitations" newer
      where older."tenant_id" = newer."tenant_id" and older."email" = newer."email" and older."accepted_at" is null and newer."accepted_at" is null and older."id" < newer."id";`);
    this.addSql(
      `create unique index "invitations_pending_unique" on "invitations" ("tenant_id", "email") where "accepted_at" is null;`,
    );
    this.addSql(`alter table "subscriptions" add column "stripe_checkout_session_id" varchar(255) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "subscriptions" drop column "stripe_checkout_session_id";`);
    this.addSql(`drop index "invitations_pending_unique";`);
  }
}
