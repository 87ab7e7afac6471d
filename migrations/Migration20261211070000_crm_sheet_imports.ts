import { Migration } from '@mikro-orm/migrations';

/**
 * Spreadsheet imports of members: the uploaded files' header and rows (new tables), the customers an import
 * created (a nullable column, so no rewrite, and a partial index that holds no entry until an import writes one),
 * and the statuses a member's import can take besides the hub's (paused, cancelled, undone; crm_imports is one
 * row per import call, so checking the new constraint is short).
 */
export class Migration20261211070000_crm_sheet_imports extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "crm_import_uploads" ("id" uuid not null, "tenant_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" uuid null, "file_name" varchar(200) null, "encoding" varchar(20) not null, "delimiter" varchar(1) not null, "columns" jsonb not null, "rows" int not null, "bytes" bigint not null, "import_id" uuid null, constraint "crm_import_uploads_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "crm_import_uploads" add constraint "crm_import_uploads_import_id_foreign" foreign key ("import_id") references "crm_imports" ("id") on update cascade on delete set null;`,
    );
    this.addSql(
      `create table "crm_import_upload_rows" ("upload_id" uuid not null, "part" int not null, "first_line" int not null, "cells" bytea not null, constraint "crm_import_upload_rows_pkey" primary key ("upload_id", "part"));`,
    );
    this.addSql(
      `alter table "crm_import_upload_rows" add constraint "crm_import_upload_rows_upload_id_foreign" foreign key ("upload_id") references "crm_import_uploads" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(`alter table "crm_customers" add column "import_id" uuid null;`);
    this.addSql(
      `create index "crm_customers_import_index" on "crm_customers" ("tenant_id", "import_id") where "import_id" is not null;`,
    );
    this.addSql(`alter table "crm_imports" drop constraint "crm_imports_status_check";`);
    this.addSql(
      `alter table "crm_imports" add constraint "crm_imports_status_check" check ("status" in ('queued', 'running', 'paused', 'completed', 'failed', 'cancelled', 'undone'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`update "crm_imports" set "status" = 'completed' where "status" in ('paused', 'cancelled', 'undone');`);
    this.addSql(`alter table "crm_imports" drop constraint "crm_imports_status_check";`);
    this.addSql(
      `alter table "crm_imports" add constraint "crm_imports_status_check" check ("status" in ('queued', 'running', 'completed', 'failed'));`,
    );
    this.addSql(`drop index "crm_customers_import_index";`);
    this.addSql(`alter table "crm_customers" drop column "import_id";`);
    this.addSql(`drop table if exists "crm_import_upload_rows" cascade;`);
    this.addSql(`drop table if exists "crm_import_uploads" cascade;`);
  }
}
