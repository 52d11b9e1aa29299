import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * The automatic refund's plan in typed columns of its item (refund_state, refund_tries,
 * refund_next_at, refund_error), no longer in the item's untyped `detail.auto_refund`: the
 * completion guard, the job and the list read one typed record. Existing plans move over and
 * leave `detail`; `down` puts them back.
 */
export class Migration20261129060000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "paylater_attention"
      add column if not exists "refund_state" text null,
      add column if not exists "refund_tries" integer not null default 0,
      add column if not exists "refund_next_at" timestamptz null,
      add column if not exists "refund_error" text null;`);
    this.addSql(`update "paylater_attention" set
        "refund_state" = detail->'auto_refund'->>'state',
        "refund_tries" = coalesce((detail->'auto_refund'->>'tries')::integer, 0),
        "refund_next_at" = (detail->'auto_refund'->>'next_attempt_at')::timestamptz,
        "refund_error" = detail->'auto_refund'->>'last_error',
        "detail" = detail - 'auto_refund'
      where detail->'auto_refund' is not null;`);
    this.addSql(`alter table if exists "paylater_attention" add constraint "paylater_attention_refund_state_check"
      check ("refund_state" in ('scheduled', 'refunding', 'refunded', 'held', 'outcome_unknown', 'stopped'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`update "paylater_attention" set "detail" = coalesce(detail, '{}'::jsonb) || jsonb_build_object('auto_refund', jsonb_build_object(
        'state', "refund_state",
        'tries', "refund_tries",
        'next_attempt_at', to_char("refund_next_at" at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'last_error', "refund_error"))
      where "refund_state" is not null;`);
    this.addSql(`alter table if exists "paylater_attention" drop constraint if exists "paylater_attention_refund_state_check";`);
    this.addSql(`alter table if exists "paylater_attention" drop column if exists "refund_state", drop column if exists "refund_tries", drop column if exists "refund_next_at", drop column if exists "refund_error";`);
  }

}
