import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Typed columns for what settlement keeps per attempt, instead of keys in the untyped `detail` JSON:
 * the completion backoff of a paid cart that could not become an order, and the settlement failures
 * that list an attempt for a person once they keep coming.
 */
export class Migration20261126183000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "paylater_attempt" add column if not exists "completion_tries" integer not null default 0, add column if not exists "completion_next_at" timestamptz null, add column if not exists "completion_error" text null;`);
    this.addSql(`alter table if exists "paylater_attempt" add column if not exists "settlement_failures" integer not null default 0, add column if not exists "settlement_failing_since" timestamptz null, add column if not exists "settlement_error" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "paylater_attempt" drop column if exists "completion_tries", drop column if exists "completion_next_at", drop column if exists "completion_error";`);
    this.addSql(`alter table if exists "paylater_attempt" drop column if exists "settlement_failures", drop column if exists "settlement_failing_since", drop column if exists "settlement_error";`);
  }

}
