import { Migration } from '@mikro-orm/migrations';

/** Billing: tier catalogue and one subscription per organisation. */
export class Migration20261123000100_billing extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "plans" ("tier" varchar(40) not null, "name" varchar(80) not null, "description" varchar(500) not null default '', "price_cents" int not null default 0, "currency" varchar(3) not null default 'EUR', "stripe_price_id" varchar(120) null, "sort_order" int not null default 0, "public" boolean not null default true, "entitlements" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "plans_pkey" primary key ("tier"));`);
    this.addSql(`create table "subscriptions" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "tier" varchar(40) not null, "status" text check ("status" in ('active', 'trialing', 'past_due', 'canceled', 'incomplete')) not null default 'active', "addons" text[] not null default '{}', "trial_started_at" timestamptz null, "trial_ends_at" timestamptz null, "trial_modules" text[] not null default '{}', "stripe_customer_id" varchar(120) null, "stripe_subscription_id" varchar(120) null, "current_period_end" timestamptz null, "cancel_at_period_end" boolean not null default false, "stripe_event_at" timestamptz null, "updated_at" timestamptz not null, constraint "subscriptions_pkey" primary key ("id"));`);
    this.addSql(`alter table "subscriptions" add constraint "subscriptions_tenant_id_unique" unique ("tenant_id");`);
    // The tier catalogue. rh (HR) starts at business; vr at pro. Quotas in bytes.
    const GB = 1024 ** 3;
    const tiers = [
      ['free', 'Free', 'Get started with the essentials', 0, 0, { modules: ['core', 'knowledge', 'cloud'], limits: { cloudQuotaBytes: 5 * GB, seats: 3, vrRooms: 0 } }],
      ['starter', 'Starter', 'For small teams', 1900, 1, { modules: ['core', 'knowledge', 'cloud'], limits: { cloudQuotaBytes: 50 * GB, seats: 10, vrRooms: 0 } }],
      ['pro', 'Pro', 'VR training and more storage', 4900, 2, { modules: ['core', 'knowledge', 'cloud', 'vr'], limits: { cloudQuotaBytes: 200 * GB, seats: 50, vrRooms: 20 } }],
      ['business', 'Business', 'Adds HR and larger limits', 14900, 3, { modules: ['core', 'knowledge', 'cloud', 'vr', 'rh'], limits: { cloudQuotaBytes: 1024 * GB, seats: 250, vrRooms: 100 } }],
      ['enterprise', 'Enterprise', 'Custom limits and support', 0, 4, { modules: ['core', 'knowledge', 'cloud', 'vr', 'rh'], limits: { cloudQuotaBytes: 5120 * GB, seats: 100000, vrRooms: 1000 } }],
    ] as const;
    for (const [tier, name, description, price, order, entitlements] of tiers) {
      this.addSql(
        this.getKnex()
          .table('plans')
          .insert({ tier, name, description, price_cents: price, currency: 'EUR', sort_order: order, public: tier !== 'enterprise', entitlements: JSON.stringify(entitlements), created_at: this.getKnex().fn.now(), updated_at: this.getKnex().fn.now() }),
      );
    }
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "subscriptions" cascade;');
    this.addSql('drop table if exists "plans" cascade;');
  }
}
