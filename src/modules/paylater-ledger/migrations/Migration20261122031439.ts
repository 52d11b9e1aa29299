import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261122031439 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "paylater_event" drop constraint if exists "paylater_event_dedupe_key_unique";`);
    this.addSql(`create table if not exists "paylater_event" ("id" text not null, "session_id" text not null, "payment_collection_id" text null, "paylater_order_id" text null, "kind" text not null, "status" text null, "detail" jsonb null, "occurred_at" timestamptz not null, "last_occurred_at" timestamptz null, "repeat_count" integer not null default 0, "dedupe_key" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "paylater_event_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_event_deleted_at" ON "paylater_event" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_event_session_id" ON "paylater_event" ("session_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_event_payment_collection_id" ON "paylater_event" ("payment_collection_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_paylater_event_dedupe_key_unique" ON "paylater_event" ("dedupe_key") WHERE dedupe_key IS NOT NULL AND deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "paylater_event" cascade;`);
  }

}
