import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Due work selected by typed columns, not by reading the untyped `detail` JSON of the oldest open
 * items: when the automatic refund next has work on an item (`refund_due_at`, from its plan in
 * `detail.auto_refund`: the next try, or 15 minutes after a started refund, when it counts as
 * abandoned), and when the list last decided an open item again (`decided_at`). Both are read
 * ordered and limited by these partial indexes. Existing rows are filled from their plans.
 */
export class Migration20261128200000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "paylater_attention" add column if not exists "refund_due_at" timestamptz null, add column if not exists "decided_at" timestamptz null;`);
    this.addSql(`update "paylater_attention" set "refund_due_at" = case detail->'auto_refund'->>'state'
        when 'scheduled' then (detail->'auto_refund'->>'next_attempt_at')::timestamptz
        when 'refunding' then (detail->'auto_refund'->>'next_attempt_at')::timestamptz + interval '15 minutes'
      end
      where status = 'open' and detail->'auto_refund'->>'next_attempt_at' is not null;`);
    this.addSql(`update "paylater_attention" set "decided_at" = "created_at" where "decided_at" is null;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_attention_refund_due_at" ON "paylater_attention" ("refund_due_at") WHERE status = 'open' AND refund_due_at IS NOT NULL AND deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_paylater_attention_decided_at" ON "paylater_attention" ("decided_at") WHERE status = 'open' AND deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "IDX_paylater_attention_refund_due_at";`);
    this.addSql(`drop index if exists "IDX_paylater_attention_decided_at";`);
    this.addSql(`alter table if exists "paylater_attention" drop column if exists "refund_due_at", drop column if exists "decided_at";`);
  }

}
