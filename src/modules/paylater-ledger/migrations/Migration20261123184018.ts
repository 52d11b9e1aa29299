import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261123184018 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "paylater_webhook_tally" drop constraint if exists "paylater_webhook_tally_minute_unique";`);
    this.addSql(`alter table if exists "paylater_refund_attempt" drop constraint if exists "paylater_refund_attempt_open_unique";`);
    this.addSql(`alter table if exists "paylater_attention" drop constraint if exists "paylater_attention_dedupe_key_unique";`);
    this.addSql(`create table if not exists "paylater_attention" ("id" text not null, "kind" text not null, "status" text not null default 'open', "dedupe_key" text null, "summary" text not null, "amount" text null, "paylater_order_id" text null, "session_id" text null, "payment_id" text null, "payment_collection_id" text null, "order_id" text null, "cart_id" text null, "detail" jsonb null, "resolution" text null, "resolution_note" text null, "resolved_by" text null, "resolved_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "paylater_attention_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_attention_deleted_at" ON "paylater_attention" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_attention_status" ON "paylater_attention" ("status") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_attention_paylater_order_id" ON "paylater_attention" ("paylater_order_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_paylater_attention_dedupe_key_unique" ON "paylater_attention" ("dedupe_key") WHERE dedupe_key IS NOT NULL AND deleted_at IS NULL;`);

    this.addSql(`create table if not exists "paylater_reconcile_run" ("id" text not null, "started_at" timestamptz not null, "finished_at" timestamptz not null, "ran" boolean not null default true, "checked" integer not null default 0, "eligible" integer not null default 0, "outcomes" jsonb null, "error" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "paylater_reconcile_run_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_reconcile_run_deleted_at" ON "paylater_reconcile_run" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_reconcile_run_started_at" ON "paylater_reconcile_run" ("started_at") WHERE deleted_at IS NULL;`);

    this.addSql(`create table if not exists "paylater_refund_attempt" ("id" text not null, "paylater_order_id" text not null, "session_id" text null, "payment_id" text null, "payment_collection_id" text null, "medusa_refund_id" text null, "amount" numeric not null, "full" boolean not null default false, "status" text not null, "error_code" text null, "error_message" text null, "sent_at" timestamptz not null, "settled_at" timestamptz null, "booked_at" timestamptz null, "raw_amount" jsonb not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "paylater_refund_attempt_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_refund_attempt_deleted_at" ON "paylater_refund_attempt" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_refund_attempt_paylater_order_id" ON "paylater_refund_attempt" ("paylater_order_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_paylater_refund_attempt_open_unique" ON "paylater_refund_attempt" ("paylater_order_id") WHERE status IN ('pending', 'unknown') AND deleted_at IS NULL;`);

    this.addSql(`create table if not exists "paylater_webhook_tally" ("id" text not null, "minute" timestamptz not null, "accepted" integer not null default 0, "refused" integer not null default 0, "failed" integer not null default 0, "last_refusal_reason" text null, "last_refusal_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "paylater_webhook_tally_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_webhook_tally_deleted_at" ON "paylater_webhook_tally" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_paylater_webhook_tally_minute_unique" ON "paylater_webhook_tally" ("minute") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "paylater_attention" cascade;`);

    this.addSql(`drop table if exists "paylater_reconcile_run" cascade;`);

    this.addSql(`drop table if exists "paylater_refund_attempt" cascade;`);

    this.addSql(`drop table if exists "paylater_webhook_tally" cascade;`);
  }

}
