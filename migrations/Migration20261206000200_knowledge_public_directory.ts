import { Migration } from '@mikro-orm/migrations';

/** The public directory pages by slug now: an index of the public spaces' slugs replaces (mode, id). */
export class Migration20261206000200_knowledge_public_directory extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop index "knowledge_spaces_mode_id_index";`);
    this.addSql(
      `create index "knowledge_spaces_public_slug_index" on "knowledge_spaces" ("slug") where "mode" in ('public_kb', 'blog');`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "knowledge_spaces_public_slug_index";`);
    this.addSql(`create index "knowledge_spaces_mode_id_index" on "knowledge_spaces" ("mode", "id");`);
  }
}
