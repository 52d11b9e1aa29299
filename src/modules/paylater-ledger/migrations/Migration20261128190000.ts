import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * `notified_at` on `paylater_attention`: when the merchant was told about the item through Medusa's
 * Notification Module (src/notifications). Null: not told yet. Items open before this version stay
 * null, so a store that upgrades is told about what already waits (bounded per hour like any other).
 * The partial index is what the notification sweep reads: open items nobody was told about.
 */
export class Migration20261128190000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "paylater_attention" add column if not exists "notified_at" timestamptz null;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_attention_unnotified" ON "paylater_attention" ("created_at") WHERE notified_at IS NULL AND status = 'open' AND deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_paylater_attention_unnotified";`);
    this.addSql(`alter table if exists "paylater_attention" drop column if exists "notified_at";`);
  }

}
