import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261124033627 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "paylater_attempt" drop constraint if exists "paylater_attempt_paylater_order_id_unique";`);
    this.addSql(`create table if not exists "paylater_attempt" ("id" text not null, "paylater_order_id" text not null, "kind" text not null, "session_id" text not null, "provider_id" text null, "payment_collection_id" text null, "cart_id" text null, "order_id" text null, "payment_id" text null, "amount" numeric not null, "currency_code" text not null, "expires_at" timestamptz null, "state" text not null, "last_status_code" integer null, "last_status_at" timestamptz null, "last_status_signal" text null, "paylater_ref" text null, "superseded_by" text null, "session_gone_at" timestamptz null, "start_error" text null, "detail" jsonb null, "raw_amount" jsonb not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "paylater_attempt_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_attempt_deleted_at" ON "paylater_attempt" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_paylater_attempt_paylater_order_id_unique" ON "paylater_attempt" ("paylater_order_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_attempt_session_id" ON "paylater_attempt" ("session_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_attempt_state" ON "paylater_attempt" ("state") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_attempt_payment_collection_id" ON "paylater_attempt" ("payment_collection_id") WHERE deleted_at IS NULL;`);

    this.addSql(`alter table if exists "paylater_refund_attempt" add column if not exists "booking_requested_at" timestamptz null;`);

  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "paylater_attempt" cascade;`);

    this.addSql(`alter table if exists "paylater_refund_attempt" drop column if exists "booking_requested_at";`);

  }

}
