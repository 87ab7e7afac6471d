import { Migration } from '@mikro-orm/migrations';

/**
 * Core service, CRM: customers (party model), custom fields, relations, activities, health scores, pipelines
 * with their stages, deals with their history, and integration imports. pg_trgm serves the typo-tolerant search; the extension is left in
 * place on the way down (other modules may use it, and dropping it needs no table of ours).
 */
export class Migration20261202000200_core_crm extends Migration {
  override async up(): Promise<void> {
    this.addSql('create extension if not exists pg_trgm;');
    this.addSql(
      `create table "crm_customers" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "kind" text check ("kind" in ('person', 'organisation')) not null, "name" varchar(200) not null, "roles" text[] not null default '{}', "tags" text[] not null default '{}', "emails" jsonb not null default '[]', "phones" jsonb not null default '[]', "addresses" jsonb not null default '[]', "primary_email" varchar(320) null, "custom" jsonb not null default '{}', "owner_id" uuid null, "external_id" varchar(200) null, "last_contact_at" timestamptz null, "search_text" text not null, constraint "crm_customers_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "crm_customers_tenant_name_key" on "crm_customers" ("tenant_id", lower("name"), "id");`);
    this.addSql(`create index "crm_customers_tenant_id_id_index" on "crm_customers" ("tenant_id", "id");`);
    this.addSql(
      `create index "crm_customers_tenant_id_updated_at_id_index" on "crm_customers" ("tenant_id", "updated_at", "id");`,
    );
    this.addSql(
      `create index "crm_customers_tenant_id_primary_email_index" on "crm_customers" ("tenant_id", "primary_email");`,
    );
    this.addSql(`create index "crm_customers_roles_gin" on "crm_customers" using gin ("roles");`);
    this.addSql(`create index "crm_customers_tags_gin" on "crm_customers" using gin ("tags");`);
    this.addSql(`create index "crm_customers_custom_gin" on "crm_customers" using gin ("custom" jsonb_path_ops);`);
    this.addSql(`create index "crm_customers_search_trgm" on "crm_customers" using gin ("search_text" gin_trgm_ops);`);
    this.addSql(
      `alter table "crm_customers" add constraint "crm_customers_tenant_id_external_id_unique" unique ("tenant_id", "external_id");`,
    );
    this.addSql(
      `create table "crm_imports" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "kind" text check ("kind" in ('customers', 'deals')) not null, "status" text check ("status" in ('queued', 'running', 'completed', 'failed')) not null default 'queued', "total" int not null, "created" int not null default 0, "updated" int not null default 0, "failed" int not null default 0, "errors" jsonb not null default '[]', "api_key_id" uuid null, "finished_at" timestamptz null, constraint "crm_imports_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create table "crm_import_payloads" ("import_id" uuid not null, "records" json not null, constraint "crm_import_payloads_pkey" primary key ("import_id"));`,
    );
    this.addSql(
      `alter table "crm_import_payloads" add constraint "crm_import_payloads_import_id_foreign" foreign key ("import_id") references "crm_imports" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `create table "crm_activities" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "customer_id" uuid not null, "type" text check ("type" in ('note', 'call', 'email', 'meeting', 'task')) not null, "subject" varchar(200) not null, "body" text not null default '', "occurred_at" timestamptz not null, "due_at" timestamptz null, "completed_at" timestamptz null, "assignee_id" uuid null, "created_by" uuid null, "source" varchar(40) null, "external_id" varchar(200) null, constraint "crm_activities_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "crm_activities_tenant_id_customer_id_occurred_at_id_index" on "crm_activities" ("tenant_id", "customer_id", "occurred_at", "id");`,
    );
    this.addSql(
      `create index "crm_activities_open_due" on "crm_activities" ("tenant_id", "due_at") where "completed_at" is null;`,
    );
    this.addSql(
      `alter table "crm_activities" add constraint "crm_activities_tenant_id_customer_id_source_external_id_unique" unique ("tenant_id", "customer_id", "source", "external_id");`,
    );
    this.addSql(
      `create table "crm_relations" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "from_id" uuid not null, "to_id" uuid not null, "type" text check ("type" in ('employee_of', 'subsidiary_of', 'contact_of', 'reports_to', 'partner_of', 'family_of', 'referred_by', 'other')) not null, "created_by" uuid null, constraint "crm_relations_pkey" primary key ("id"), constraint crm_relations_not_self check (from_id <> to_id));`,
    );
    this.addSql(`create index "crm_relations_to_id_index" on "crm_relations" ("to_id");`);
    this.addSql(
      `alter table "crm_relations" add constraint "crm_relations_from_id_to_id_type_unique" unique ("from_id", "to_id", "type");`,
    );
    this.addSql(
      `create table "crm_custom_fields" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "key" varchar(64) not null, "label" varchar(120) not null, "type" text check ("type" in ('text', 'number', 'date', 'boolean', 'select')) not null, "options" text[] not null default '{}', constraint "crm_custom_fields_pkey" primary key ("id"), constraint crm_custom_fields_options_check check ((type = 'select') = (cardinality(options) > 0)));`,
    );
    this.addSql(
      `alter table "crm_custom_fields" add constraint "crm_custom_fields_tenant_id_key_unique" unique ("tenant_id", "key");`,
    );
    this.addSql(
      `create table "crm_health_scores" ("customer_id" uuid not null, "tenant_id" uuid not null, "score" int not null, "risk" text check ("risk" in ('low', 'medium', 'high')) not null, "signals" jsonb not null, "computed_at" timestamptz not null, constraint "crm_health_scores_pkey" primary key ("customer_id"), constraint crm_health_scores_score_check check (score >= 0 and score <= 100));`,
    );
    this.addSql(
      `create index "crm_health_scores_tenant_id_score_index" on "crm_health_scores" ("tenant_id", "score");`,
    );
    this.addSql(
      `create table "crm_pipelines" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "name" varchar(120) not null, constraint "crm_pipelines_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create table "crm_pipeline_stages" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "pipeline_id" uuid not null, "name" varchar(120) not null, "position" int not null, "probability" int not null, constraint "crm_pipeline_stages_pkey" primary key ("id"), constraint crm_pipeline_stages_probability_check check (probability >= 0 and probability <= 100));`,
    );
    this.addSql(`create index "crm_pipelines_tenant_id_name_index" on "crm_pipelines" ("tenant_id", "name");`);
    this.addSql(
      `create index "crm_pipeline_stages_pipeline_id_position_index" on "crm_pipeline_stages" ("pipeline_id", "position");`,
    );
    this.addSql(
      `create table "crm_deals" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "title" varchar(200) not null, "customer_id" uuid not null, "pipeline_id" uuid not null, "stage_id" uuid not null, "amount" bigint not null, "currency" varchar(3) not null, "owner_id" uuid null, "status" text check ("status" in ('open', 'won', 'lost')) not null default 'open', "lost_reason" varchar(500) null, "expected_close_date" date null, "closed_at" timestamptz null, "stage_changed_at" timestamptz not null, "external_id" varchar(200) null, constraint "crm_deals_pkey" primary key ("id"), constraint crm_deals_closed_check check ((status = 'open') = (closed_at is null)), constraint crm_deals_lost_reason_check check ((status = 'lost') = (lost_reason is not null)), constraint crm_deals_amount_check check (amount >= 0));`,
    );
    this.addSql(
      `create index "crm_deals_tenant_id_pipeline_id_status_stage_id_index" on "crm_deals" ("tenant_id", "pipeline_id", "status", "stage_id");`,
    );
    this.addSql(`create index "crm_deals_tenant_id_customer_id_index" on "crm_deals" ("tenant_id", "customer_id");`);
    this.addSql(`create index "crm_deals_tenant_id_owner_id_index" on "crm_deals" ("tenant_id", "owner_id");`);
    this.addSql(
      `alter table "crm_deals" add constraint "crm_deals_tenant_id_external_id_unique" unique ("tenant_id", "external_id");`,
    );
    this.addSql(
      `create table "crm_deal_events" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "deal_id" uuid not null, "type" text check ("type" in ('created', 'moved', 'won', 'lost', 'reopened')) not null, "from_stage_id" uuid null, "to_stage_id" uuid null, "actor_id" uuid null, "at" timestamptz not null, "reason" varchar(500) null, constraint "crm_deal_events_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "crm_deal_events_deal_id_at_index" on "crm_deal_events" ("deal_id", "at");`);
    this.addSql(
      `alter table "crm_activities" add constraint "crm_activities_customer_id_foreign" foreign key ("customer_id") references "crm_customers" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "crm_relations" add constraint "crm_relations_from_id_foreign" foreign key ("from_id") references "crm_customers" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "crm_relations" add constraint "crm_relations_to_id_foreign" foreign key ("to_id") references "crm_customers" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "crm_health_scores" add constraint "crm_health_scores_customer_id_foreign" foreign key ("customer_id") references "crm_customers" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "crm_pipeline_stages" add constraint "crm_pipeline_stages_pipeline_id_foreign" foreign key ("pipeline_id") references "crm_pipelines" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "crm_deals" add constraint "crm_deals_customer_id_foreign" foreign key ("customer_id") references "crm_customers" ("id") on update cascade on delete restrict;`,
    );
    this.addSql(
      `alter table "crm_deals" add constraint "crm_deals_pipeline_id_foreign" foreign key ("pipeline_id") references "crm_pipelines" ("id") on update cascade on delete restrict;`,
    );
    this.addSql(
      `alter table "crm_deals" add constraint "crm_deals_stage_id_foreign" foreign key ("stage_id") references "crm_pipeline_stages" ("id") on update cascade on delete restrict;`,
    );
    this.addSql(
      `alter table "crm_deal_events" add constraint "crm_deal_events_deal_id_foreign" foreign key ("deal_id") references "crm_deals" ("id") on update cascade on delete cascade;`,
    );

    // A deal's stage belongs to the deal's pipeline.
    this.addSql(
      `create function crm_deals_stage_in_pipeline() returns trigger language plpgsql as $$ begin if not exists (select 1 from crm_pipeline_stages where id = new.stage_id and pipeline_id = new.pipeline_id) then raise exception 'stage % is not a stage of pipeline %', new.stage_id, new.pipeline_id using errcode = '23514', constraint = 'crm_deals_stage_in_pipeline'; end if; return new; end $$;`,
    );
    this.addSql(
      `create trigger crm_deals_stage_in_pipeline before insert or update of stage_id, pipeline_id on crm_deals for each row execute function crm_deals_stage_in_pipeline();`,
    );
    // The deal history is append-only.
    this.addSql(
      `create function crm_deal_events_immutable() returns trigger language plpgsql as $$ begin raise exception 'deal history is append-only' using errcode = '55000'; end $$;`,
    );
    this.addSql(
      `create trigger crm_deal_events_immutable before update on crm_deal_events for each row execute function crm_deal_events_immutable();`,
    );
  }

  override async down(): Promise<void> {
    for (const table of [
      'crm_deal_events',
      'crm_deals',
      'crm_pipeline_stages',
      'crm_pipelines',
      'crm_health_scores',
      'crm_activities',
      'crm_relations',
      'crm_custom_fields',
      'crm_import_payloads',
      'crm_imports',
      'crm_customers',
    ]) {
      this.addSql(`drop table if exists "${table}" cascade;`);
    }
    this.addSql('drop function if exists crm_deals_stage_in_pipeline();');
    this.addSql('drop function if exists crm_deal_events_immutable();');
  }
}
