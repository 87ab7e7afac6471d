import { Migration } from '@mikro-orm/migrations';

/**
 * Customer imports are checked when the call is accepted and stored as rows PostgreSQL reads itself, in parts
 * the worker upserts one statement each (`part`, `checked`; payloads stored before are unchecked part 0 and
 * are checked by the worker). The bytes are stored uncompressed (storage external): compressing megabytes
 * per call cost PostgreSQL CPU to save disk for rows deleted seconds later.
 */
export class Migration20261203000000_crm_import_parts extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "crm_import_payloads" add column "part" int not null default 0, add column "checked" boolean not null default false;`,
    );
    this.addSql(`alter table "crm_import_payloads" alter column "part" drop default;`);
    this.addSql(
      `alter table "crm_import_payloads" drop constraint "crm_import_payloads_pkey", add constraint "crm_import_payloads_pkey" primary key ("import_id", "part");`,
    );
    this.addSql(`alter table "crm_import_payloads" alter column "records" set storage external;`);
  }

  /** Imports waiting in checked parts are marked failed (their rows no longer fit one payload per import). */
  override async down(): Promise<void> {
    this.addSql(
      `update "crm_imports" set "status" = 'failed', "finished_at" = now(), "errors" = '[{"index": -1, "externalId": null, "field": "import", "message": "dropped by a schema downgrade"}]' where "id" in (select "import_id" from "crm_import_payloads" where "checked");`,
    );
    this.addSql(`delete from "crm_import_payloads" where "checked";`);
    this.addSql(`alter table "crm_import_payloads" alter column "records" set storage extended;`);
    this.addSql(
      `alter table "crm_import_payloads" drop constraint "crm_import_payloads_pkey", add constraint "crm_import_payloads_pkey" primary key ("import_id");`,
    );
    this.addSql(`alter table "crm_import_payloads" drop column "part", drop column "checked";`);
  }
}
