import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * The funnel and the finance report (src/funnel/report-sql.ts): attempts created in a period, payments
 * PayLater said paid in a period (paged in that order), refunds sent in a period. Indexes only.
 */
export class Migration20261126181000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_attempt_created_at" ON "paylater_attempt" ("created_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_attempt_paid_at" ON "paylater_attempt" ("last_status_at", "id") WHERE state = 'paid' AND deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_refund_attempt_sent_at" ON "paylater_refund_attempt" ("sent_at") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_paylater_attempt_created_at";`);
    this.addSql(`drop index if exists "IDX_paylater_attempt_paid_at";`);
    this.addSql(`drop index if exists "IDX_paylater_refund_attempt_sent_at";`);
  }

}
