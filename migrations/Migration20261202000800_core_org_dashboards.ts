import { Migration } from '@mikro-orm/migrations';

/** Core service, organisation (after cloud: the media library references cloud_nodes): dashboards and widgets, sidebar preferences and role defaults, onboarding dismissals, the media library. */
export class Migration20261202000800_core_org_dashboards extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "core_dashboards" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "user_id" uuid not null, "name" varchar(120) not null, "columns" int not null default 12, "is_default" boolean not null default false, "updated_at" timestamptz not null, constraint "core_dashboards_pkey" primary key ("id"), constraint core_dashboards_columns_check check (columns >= 1 and columns <= 24));`,
    );
    this.addSql(
      `create index "core_dashboards_tenant_id_user_id_id_index" on "core_dashboards" ("tenant_id", "user_id", "id");`,
    );
    this.addSql(
      `create unique index "core_dashboards_one_default" on "core_dashboards" ("tenant_id", "user_id") where "is_default";`,
    );

    this.addSql(
      `create table "core_dashboard_widgets" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "dashboard_id" uuid not null, "type" varchar(60) not null, "title" varchar(120) null, "x" int not null, "y" int not null, "w" int not null, "h" int not null, "settings" jsonb not null, "updated_at" timestamptz not null, constraint "core_dashboard_widgets_pkey" primary key ("id"), constraint core_dashboard_widgets_place_check check (x >= 0 and y >= 0 and w >= 1 and h >= 1 and w <= 24 and h <= 24 and x + w <= 24));`,
    );
    this.addSql(
      `create index "core_dashboard_widgets_dashboard_id_y_x_index" on "core_dashboard_widgets" ("dashboard_id", "y", "x");`,
    );
    this.addSql(
      `alter table "core_dashboard_widgets" add constraint "core_dashboard_widgets_dashboard_id_foreign" foreign key ("dashboard_id") references "core_dashboards" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `create table "core_sidebar_preferences" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "user_id" uuid not null, "order" text[] not null default '{}', "hidden" text[] not null default '{}', "pinned" text[] not null default '{}', "updated_at" timestamptz not null, constraint "core_sidebar_preferences_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "core_sidebar_preferences" add constraint "core_sidebar_preferences_tenant_id_user_id_unique" unique ("tenant_id", "user_id");`,
    );

    this.addSql(
      `create table "core_sidebar_role_defaults" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "role_id" uuid not null, "order" text[] not null default '{}', "hidden" text[] not null default '{}', "pinned" text[] not null default '{}', "updated_by" uuid null, "updated_at" timestamptz not null, constraint "core_sidebar_role_defaults_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "core_sidebar_role_defaults" add constraint "core_sidebar_role_defaults_tenant_id_role_id_unique" unique ("tenant_id", "role_id");`,
    );
    this.addSql(
      `alter table "core_sidebar_role_defaults" add constraint "core_sidebar_role_defaults_role_id_foreign" foreign key ("role_id") references "roles" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `create table "core_onboarding_dismissals" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "user_id" uuid not null, constraint "core_onboarding_dismissals_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "core_onboarding_dismissals" add constraint "core_onboarding_dismissals_tenant_id_user_id_unique" unique ("tenant_id", "user_id");`,
    );

    this.addSql(
      `create table "core_assets" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "kind" text check ("kind" in ('image', 'file')) not null, "alt" varchar(300) null, "created_by" uuid null, "updated_at" timestamptz not null, constraint "core_assets_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "core_assets_tenant_id_kind_id_index" on "core_assets" ("tenant_id", "kind", "id");`);
    this.addSql(
      `alter table "core_assets" add constraint "core_assets_id_foreign" foreign key ("id") references "cloud_nodes" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "core_assets" cascade;');
    this.addSql('drop table if exists "core_onboarding_dismissals" cascade;');
    this.addSql('drop table if exists "core_sidebar_role_defaults" cascade;');
    this.addSql('drop table if exists "core_sidebar_preferences" cascade;');
    this.addSql('drop table if exists "core_dashboard_widgets" cascade;');
    this.addSql('drop table if exists "core_dashboards" cascade;');
  }
}
