import { Migration } from '@mikro-orm/migrations';

/**
 * Core follow-ups:
 *  - inv_invoices.customer_id references crm_customers (on delete restrict): a customer with invoices is not
 *    deleted (409 customer_in_use) and no draft loses its customer. Added NOT VALID: invoices whose customer
 *    was deleted before (issued ones are immutable and kept) stay as they are; new rows, changed references and
 *    customer deletions are checked.
 *  - a relation of a symmetric kind (partner_of, family_of, other) is unique per pair whichever end stored it:
 *    a unique index on the pair in canonical order; of two stored both ways, the older is kept.
 */
export class Migration20261205000000_core_followups extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "inv_invoices" add constraint "inv_invoices_customer_id_foreign" foreign key ("customer_id") references "crm_customers" ("id") on update cascade on delete restrict not valid;`,
    );
    this.addSql(`delete from "crm_relations" r using "crm_relations" o
      where r."type" in ('partner_of', 'family_of', 'other') and o."type" = r."type" and o."from_id" = r."to_id" and o."to_id" = r."from_id" and o."id" < r."id";`);
    this.addSql(
      `create unique index "crm_relations_symmetric_unique" on "crm_relations" (least("from_id", "to_id"), greatest("from_id", "to_id"), "type") where "type" in ('partner_of', 'family_of', 'other');`,
    );
  }

  /** The duplicates removed are not restored (each pair keeps its one relation). */
  override async down(): Promise<void> {
    this.addSql(`drop index "crm_relations_symmetric_unique";`);
    this.addSql(`alter table "inv_invoices" drop constraint "inv_invoices_customer_id_foreign";`);
  }
}
