import { Migration } from '@mikro-orm/migrations';

/**
 * api_keys.sees_unpublished: whether a knowledge key reads unpublished articles, decided at creation from its
 * creator's knowledge.write (until now every key read them, whoever created it).
 *
 * The column defaults to false, the safe value for any row written without deciding. Existing knowledge keys are
 * backfilled from what their creator holds today: true when the creator is still a member holding
 * knowledge.write (or an owner), i.e. exactly the keys whose creator could read those drafts with their own
 * login; a key minted by a member who may only read published articles loses what it should never have had.
 * Keys keep working for published content either way, and the resolver still caps each call by the creator's
 * current permissions, so the backfill can only narrow, never widen, what an existing key reads.
 */
export class Migration20261209000300_apikeys_creator_bound extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "api_keys" add column "sees_unpublished" boolean not null default false;`);
    this.addSql(`
      update "api_keys" k set "sees_unpublished" = true
      where k."module" = 'knowledge' and exists (
        select 1 from "memberships" m
        join "membership_roles" mr on mr."membership_id" = m."id"
        join "roles" r on r."id" = mr."role_id"
        where m."tenant_id" = k."tenant_id" and m."user_id" = k."created_by" and (r."key" = 'owner' or 'knowledge.write' = any(r."permissions"))
      );`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "api_keys" drop column "sees_unpublished";`);
  }
}
