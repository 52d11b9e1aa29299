import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * `paid_at`: when PayLater first said an attempt was paid, written once by the ledger. The finance
 * report and the funnel used `last_status_at`, which moves each time PayLater is asked again (an
 * admin's check, reconciliation), so a payment could drift into a later period. Existing paid rows
 * take their last status time, the best record there is of it.
 *
 * Indexes for src/funnel/report-sql.ts: the paid index moves to the new column (same name; the
 * finance report pages by it) and carries what the money query sums, and the creation index
 * becomes a covering one for the funnel's cohort (every column its one pass reads), so neither reads
 * the table's pages, which hold the wide rows (JSON detail, ids) the reports do not need.
 */
export class Migration20261126220000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "paylater_attempt" add column if not exists "paid_at" timestamptz null;`);
    this.addSql(`update "paylater_attempt" set "paid_at" = coalesce("last_status_at", "created_at") where "state" = 'paid' and "paid_at" is null;`);
    this.addSql(`drop index if exists "IDX_paylater_attempt_paid_at";`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_attempt_paid_at" ON "paylater_attempt" ("paid_at", "id") INCLUDE ("kind", "amount", "paylater_order_id") WHERE state = 'paid' AND deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_attempt_cohort" ON "paylater_attempt" ("created_at") INCLUDE ("kind", "state", "start_error", "paid_at", "order_id", "superseded_by", "session_gone_at", "expires_at", "cart_id", "payment_collection_id", "session_id") WHERE deleted_at IS NULL;`);
    this.addSql(`drop index if exists "IDX_paylater_attempt_created_at";`);
  }

  override async down(): Promise<void> {
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_attempt_created_at" ON "paylater_attempt" ("created_at") WHERE deleted_at IS NULL;`);
    this.addSql(`drop index if exists "IDX_paylater_attempt_cohort";`);
    this.addSql(`drop index if exists "IDX_paylater_attempt_paid_at";`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_attempt_paid_at" ON "paylater_attempt" ("last_status_at", "id") WHERE state = 'paid' AND deleted_at IS NULL;`);
    this.addSql(`alter table if exists "paylater_attempt" drop column if exists "paid_at";`);
  }

}
