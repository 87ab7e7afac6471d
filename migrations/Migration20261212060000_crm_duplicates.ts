import { Migration } from '@mikro-orm/migrations';

/**
 * Duplicates and merges of CRM customers (docs/crm.md, "Duplicates and merge").
 *
 * - `merged_into` / `merged_at`: a merged customer stays as a soft-deleted row (issued invoices keep referring to
 *   it: their documents never change), pointing at its survivor. Nullable columns: no rewrite. The trigger
 *   `crm_customers_merge_guard` keeps merges consistent whatever writes them: the survivor is a live customer of the
 *   same organisation, a merged row is never brought back nor edited, only pointed on at a later survivor.
 * - The keys duplicates are found by, computed by immutable functions so that expression indexes serve them:
 *   `crm_dedup_keys(emails, phones, custom)` (`e:` e-mail lower-cased, `p:` phone in E.164, `s:` SIREN from a SIREN,
 *   SIRET or French VAT number of the custom values, `v:` another VAT number) and `crm_dedup_name(name)` (lower case,
 *   accents and legal forms dropped) under a trigram index (pg_trgm, created by the first CRM migration). The same
 *   rules in TypeScript: domain/core/crm/duplicates/normalise.ts (a test compares both on one table of cases).
 * Both indexes are partial (live customers only); the table is read by them only after this migration's code runs.
 */
export class Migration20261212060000_crm_duplicates extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "crm_customers" add column "merged_into" uuid null, add column "merged_at" timestamptz null;`,
    );
    this.addSql(
      `alter table "crm_customers" add constraint "crm_customers_merged_check" check (("merged_into" is null) = ("merged_at" is null) and "merged_into" is distinct from "id");`,
    );

    this.addSql(`create function "crm_dedup_email"(raw text) returns text language sql immutable parallel safe as $$
      select case when position('@' in v) > 1 then v end from (select lower(btrim(coalesce(raw, ''))) as v) s
    $$;`);
    this.addSql(`create function "crm_dedup_phone"(raw text) returns text language plpgsql immutable parallel safe as $$
      declare
        s text := regexp_replace(regexp_replace(coalesce(raw, ''), '\\(0\\)', '', 'g'), '[^0-9+]', '', 'g');
        d text;
      begin
        if left(s, 2) = '00' then s := '+' || substr(s, 3); end if;
        if left(s, 1) = '+' then d := replace(substr(s, 2), '+', '');
        elsif s ~ '^0[1-9][0-9]{8}$' then d := '33' || substr(s, 2);
        else return null;
        end if;
        if d ~ '^330[1-9][0-9]{8}$' then d := '33' || substr(d, 4); end if;
        if d !~ '^[1-9][0-9]{7,14}$' then return null; end if;
        return '+' || d;
      end
    $$;`);
    this.addSql(`create function "crm_dedup_legal"(raw text) returns text language sql immutable parallel safe as $$
      select case
        when v ~ '^[0-9]{9}$' then 's:' || v
        when v ~ '^[0-9]{14}$' then 's:' || left(v, 9)
        when v ~ '^FR[0-9A-Z]{2}[0-9]{9}$' then 's:' || right(v, 9)
        when v ~ '^[A-Z]{2}[0-9A-Z+*]{2,13}$' and v ~ '[0-9]' then 'v:' || v
      end from (select upper(regexp_replace(coalesce(raw, ''), '[[:space:].-]', '', 'g')) as v) s
    $$;`);
    this
      .addSql(`create function "crm_dedup_keys"(emails jsonb, phones jsonb, custom jsonb) returns text[] language sql immutable parallel safe as $$
      select coalesce(array_agg(distinct k order by k) filter (where k is not null), '{}') from (
        select 'e:' || crm_dedup_email(e->>'value') as k from jsonb_array_elements(case when jsonb_typeof(emails) = 'array' then emails else '[]' end) e
        union all
        select 'p:' || crm_dedup_phone(p->>'value') from jsonb_array_elements(case when jsonb_typeof(phones) = 'array' then phones else '[]' end) p
        union all
        select crm_dedup_legal(custom->>f) from unnest(array['siren', 'siret', 'vat', 'vat_number', 'vatNumber', 'tva']) f
      ) keys
    $$;`);
    this.addSql(`create function "crm_dedup_name"(name text) returns text language sql immutable parallel safe as $$
      select btrim(regexp_replace(regexp_replace(
        ' ' || regexp_replace(translate(lower(coalesce(name, '')), 'àáâãäåāçćčèéêëēěìíîïīñńòóôõöøōœùúûüūýÿžšß', 'aaaaaaaccceeeeeeiiiiinnoooooooouuuuuyyzss'), '[^a-z0-9]+', ' ', 'g') || ' ',
        ' ((sas|sasu|sarl|eurl|sa|sci|snc|scop|selarl|inc|ltd|llc|gmbh|bv|plc|corp|co|the|et|and|cie) )+', ' ', 'g'),
        '\\s+', ' ', 'g'))
    $$;`);

    this.addSql(`create function "crm_customers_merge_guard"() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' and old.merged_into is not null then
          if new.merged_into is null then
            raise exception 'customer % was merged and cannot be brought back', old.id using errcode = 'check_violation';
          end if;
          if (new.name, new.emails, new.phones, new.custom, new.tags, new.roles) is distinct from
             (old.name, old.emails, old.phones, old.custom, old.tags, old.roles) then
            raise exception 'customer % was merged and cannot be edited', old.id using errcode = 'check_violation';
          end if;
        end if;
        if new.merged_into is not null and (tg_op = 'INSERT' or new.merged_into is distinct from old.merged_into) then
          perform 1 from crm_customers s where s.id = new.merged_into and s.tenant_id = new.tenant_id and s.merged_into is null;
          if not found then
            raise exception 'customer % cannot be merged into %: not a live customer of its organisation', new.id, new.merged_into
              using errcode = 'check_violation';
          end if;
        end if;
        return new;
      end
    $$;`);
    this.addSql(
      `create trigger "crm_customers_merge_guard" before insert or update of "merged_into", "merged_at", "name", "emails", "phones", "custom", "tags", "roles" on "crm_customers" for each row execute function "crm_customers_merge_guard"();`,
    );

    this.addSql(
      `create index "crm_customers_dedup_keys_gin" on "crm_customers" using gin (crm_dedup_keys("emails", "phones", "custom")) where "merged_into" is null;`,
    );
    this.addSql(
      `create index "crm_customers_dedup_name_trgm" on "crm_customers" using gin (crm_dedup_name("name") gin_trgm_ops) where "merged_into" is null;`,
    );
    this.addSql(
      `create index "crm_customers_merged_into_index" on "crm_customers" ("tenant_id", "merged_into") where "merged_into" is not null;`,
    );
  }

  // Down keeps every row: merged customers become live again beside their survivor (what was moved stays moved).
  override async down(): Promise<void> {
    this.addSql(`drop index "crm_customers_merged_into_index";`);
    this.addSql(`drop index "crm_customers_dedup_name_trgm";`);
    this.addSql(`drop index "crm_customers_dedup_keys_gin";`);
    this.addSql(`drop trigger "crm_customers_merge_guard" on "crm_customers";`);
    this.addSql(`drop function "crm_customers_merge_guard"();`);
    this.addSql(`drop function "crm_dedup_name"(text);`);
    this.addSql(`drop function "crm_dedup_keys"(jsonb, jsonb, jsonb);`);
    this.addSql(`drop function "crm_dedup_legal"(text);`);
    this.addSql(`drop function "crm_dedup_phone"(text);`);
    this.addSql(`drop function "crm_dedup_email"(text);`);
    this.addSql(`alter table "crm_customers" drop constraint "crm_customers_merged_check";`);
    this.addSql(`alter table "crm_customers" drop column "merged_at", drop column "merged_into";`);
  }
}
