import { Migration } from '@mikro-orm/migrations';

/** Billing: tier catalogue, add-ons, promotions, one subscription per organisation, received Stripe events. */
export class Migration20261123000100_billing extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "plans" ("tier" varchar(40) not null, "name" varchar(80) not null, "description" varchar(500) not null default '', "price_cents" int not null default 0, "currency" varchar(3) not null default 'EUR', "stripe_price_id" varchar(120) null, "sort_order" int not null default 0, "public" boolean not null default true, "entitlements" jsonb not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "plans_pkey" primary key ("tier"));`,
    );
    this.addSql(`alter table "plans" add constraint "plans_stripe_price_id_unique" unique ("stripe_price_id");`);
    this.addSql(
      `create table "subscriptions" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "tier" varchar(40) not null, "status" text check ("status" in ('active', 'trialing', 'past_due', 'canceled', 'incomplete', 'unpaid', 'paused')) not null default 'active', "addons" text[] not null default '{}', "trial_started_at" timestamptz null, "trial_ends_at" timestamptz null, "trial_modules" text[] not null default '{}', "stripe_customer_id" varchar(120) null, "stripe_subscription_id" varchar(120) null, "current_period_end" timestamptz null, "cancel_at_period_end" boolean not null default false, "stripe_event_at" timestamptz null, "updated_at" timestamptz not null, constraint "subscriptions_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "subscriptions" add constraint "subscriptions_tenant_id_unique" unique ("tenant_id");`);
    this.addSql(
      `alter table "subscriptions" add constraint "subscriptions_stripe_customer_id_unique" unique ("stripe_customer_id");`,
    );
    this.addSql(
      `alter table "subscriptions" add constraint "subscriptions_stripe_subscription_id_unique" unique ("stripe_subscription_id");`,
    );
    this.addSql(`create index "subscriptions_trial_ends_at_index" on "subscriptions" ("trial_ends_at");`);
    this.addSql(`create index "subscriptions_tier_index" on "subscriptions" ("tier");`);
    this.addSql(
      `create table "addons" ("module_key" varchar(40) not null, "name" varchar(80) not null, "description" varchar(500) not null default '', "price_cents" int not null default 0, "currency" varchar(3) not null default 'EUR', "stripe_price_id" varchar(120) null, "active" boolean not null default true, "sort_order" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "addons_pkey" primary key ("module_key"));`,
    );
    this.addSql(`alter table "addons" add constraint "addons_stripe_price_id_unique" unique ("stripe_price_id");`);
    this.addSql(
      `create table "promotions" ("id" uuid not null, "code" varchar(64) not null, "percent_off" int null, "amount_off_cents" int null, "currency" varchar(3) null, "expires_at" timestamptz null, "max_redemptions" int null, "redemptions" int not null default 0, "active" boolean not null default true, "applies_to_tiers" text[] not null default '{}', "stripe_coupon_id" varchar(120) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "promotions_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "promotions" add constraint "promotions_code_unique" unique ("code");`);
    this.addSql(
      `create table "stripe_events" ("id" varchar(255) not null, "type" varchar(100) not null, "created" timestamptz not null, "payload" jsonb not null, "received_at" timestamptz not null, "processed_at" timestamptz null, "tenant_id" uuid null, "outcome" text check ("outcome" in ('applied', 'stale', 'ignored')) null, constraint "stripe_events_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "stripe_events_tenant_id_created_index" on "stripe_events" ("tenant_id", "created");`);
    // The tier catalogue. rh (HR) starts at business; vr at pro. Quotas in bytes.
    const GB = 1024 ** 3;
    const tiers = [
      [
        'free',
        'Free',
        'Get started with the essentials',
        0,
        0,
        { modules: ['core', 'knowledge', 'cloud'], limits: { cloudQuotaBytes: 5 * GB, seats: 3, vrRooms: 0 } },
      ],
      [
        'starter',
        'Starter',
        'For small teams',
        1900,
        1,
        { modules: ['core', 'knowledge', 'cloud'], limits: { cloudQuotaBytes: 50 * GB, seats: 10, vrRooms: 0 } },
      ],
      [
        'pro',
        'Pro',
        'VR training and more storage',
        4900,
        2,
        {
          modules: ['core', 'knowledge', 'cloud', 'vr'],
          limits: { cloudQuotaBytes: 200 * GB, seats: 50, vrRooms: 20 },
        },
      ],
      [
        'business',
        'Business',
        'Adds HR and larger limits',
        14900,
        3,
        {
          modules: ['core', 'knowledge', 'cloud', 'vr', 'rh'],
          limits: { cloudQuotaBytes: 1024 * GB, seats: 250, vrRooms: 100 },
        },
      ],
      [
        'enterprise',
        'Enterprise',
        'Custom limits and support',
        0,
        4,
        {
          modules: ['core', 'knowledge', 'cloud', 'vr', 'rh'],
          limits: { cloudQuotaBytes: 5120 * GB, seats: 100000, vrRooms: 1000 },
        },
      ],
    ] as const;
    const knex = this.getKnex();
    for (const [tier, name, description, price, order, entitlements] of tiers) {
      this.addSql(
        knex.table('plans').insert({
          tier,
          name,
          description,
          price_cents: price,
          currency: 'EUR',
          sort_order: order,
          public: tier !== 'enterprise',
          entitlements: JSON.stringify(entitlements),
          created_at: knex.fn.now(),
          updated_at: knex.fn.now(),
        }),
      );
    }
    // The paid modules are also sold on their own, for tiers that do not include them.
    const addons = [
      ['vr', 'VR training', 'VR rooms, sessions, reports and the assistant', 2900, 1],
      ['rh', 'HR', 'Clocking, leave, schedules and compliance', 3900, 2],
    ] as const;
    for (const [moduleKey, name, description, price, order] of addons) {
      this.addSql(
        knex.table('addons').insert({
          module_key: moduleKey,
          name,
          description,
          price_cents: price,
          currency: 'EUR',
          sort_order: order,
          created_at: knex.fn.now(),
          updated_at: knex.fn.now(),
        }),
      );
    }
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "stripe_events" cascade;');
    this.addSql('drop table if exists "promotions" cascade;');
    this.addSql('drop table if exists "addons" cascade;');
    this.addSql('drop table if exists "subscriptions" cascade;');
    this.addSql('drop table if exists "plans" cascade;');
  }
}
