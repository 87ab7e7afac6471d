import { Migration } from '@mikro-orm/migrations';

/**
 * Identity: SAML 2.0 single sign-on beside OpenID Connect (domain/identity/sso/samlSignIn.ts). A provider says its
 * protocol; a SAML one keeps the IdP's sign-in URL and signing certificate and has no OpenID client. Columns added
 * with constant defaults or null (no table rewrite), NOT NULL dropped (metadata only), the check added NOT VALID then
 * validated (every existing provider is OpenID with its client): safe on a live database, a one-row-per-organisation
 * table anyway.
 */
export class Migration20261220000300_identity_sso_saml extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "identity_sso_providers" add column "protocol" text check ("protocol" in ('oidc', 'saml')) not null default 'oidc', add column "saml_sso_url" varchar(2000) null, add column "saml_certificate" text null;`,
    );
    this.addSql(`alter table "identity_sso_providers" alter column "client_id" drop not null;`);
    this.addSql(`alter table "identity_sso_providers" alter column "client_secret_sealed" drop not null;`);
    this.addSql(
      `alter table "identity_sso_providers" add constraint identity_sso_providers_protocol_fields_check check(("protocol" = 'oidc' and "client_id" is not null and "client_secret_sealed" is not null) or ("protocol" = 'saml' and "saml_sso_url" is not null and "saml_certificate" is not null)) not valid;`,
    );
    this.addSql(
      `alter table "identity_sso_providers" validate constraint identity_sso_providers_protocol_fields_check;`,
    );
  }

  override async down(): Promise<void> {
    // SAML providers cannot be kept without their columns: they go (with their links, by cascade of the code).
    this.addSql(
      `delete from "identity_sso_links" l using "identity_sso_providers" p where p.protocol = 'saml' and l.tenant_id = p.tenant_id and l.issuer = p.issuer;`,
    );
    this.addSql(`delete from "identity_sso_providers" where "protocol" = 'saml';`);
    this.addSql(`alter table "identity_sso_providers" drop constraint identity_sso_providers_protocol_fields_check;`);
    this.addSql(`alter table "identity_sso_providers" alter column "client_secret_sealed" set not null;`);
    this.addSql(`alter table "identity_sso_providers" alter column "client_id" set not null;`);
    this.addSql(
      `alter table "identity_sso_providers" drop column "protocol", drop column "saml_sso_url", drop column "saml_certificate";`,
    );
  }
}
