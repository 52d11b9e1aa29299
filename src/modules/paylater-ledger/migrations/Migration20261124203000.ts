import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/** Each open attempt's own next question to PayLater (fair scheduling, attempt-state.ts `nextAskAt`). */
export class Migration20261124203000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "paylater_attempt" add column if not exists "next_ask_at" timestamptz null, add column if not exists "asks" integer not null default 0;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_attempt_next_ask_at" ON "paylater_attempt" ("next_ask_at") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_paylater_attempt_next_ask_at";`);
    this.addSql(`alter table if exists "paylater_attempt" drop column if exists "next_ask_at", drop column if exists "asks";`);
  }

}
