import { Migration } from '@mikro-orm/migrations';

/**
 * refresh_tokens.tenant_id: the organisation a refresh token signs in to. A switch of organisation issues a token
 * for the other one in the same session instead of superseding the session's token, so the other tabs of the
 * device stay signed in where they were. Null for tokens issued before: they sign in to the session's
 * organisation, as they did. A nullable column without default: no rewrite and no long lock on a live table,
 * and dynos of the previous release keep inserting rows during the deploy.
 */
export class Migration20261210000000_refresh_token_tenant extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "refresh_tokens" add column "tenant_id" uuid null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "refresh_tokens" drop column "tenant_id";`);
  }
}
