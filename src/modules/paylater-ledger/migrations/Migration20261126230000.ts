import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * `paylater_lookup_refusal`: the store route's shopper look-up refusals per hour, method and code
 * (models/paylater-lookup-refusal.ts). The unique index is what the counting upsert lands on, and its
 * leading hour is what the funnel's period range reads.
 */
export class Migration20261126230000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table if not exists "paylater_lookup_refusal" ("id" text not null, "hour" timestamptz not null, "kind" text not null, "code" text not null, "count" integer not null default 0, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "paylater_lookup_refusal_pkey" primary key ("id"));`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_paylater_lookup_refusal_hour_kind_code_unique" ON "paylater_lookup_refusal" ("hour", "kind", "code") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_lookup_refusal_deleted_at" ON "paylater_lookup_refusal" ("deleted_at") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "paylater_lookup_refusal" cascade;`);
  }

}
