import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/** The PayLater account (outlet, client id, API base; no secret) each attempt was sent to. */
export class Migration20261126180000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "paylater_attempt" add column if not exists "paylater_account" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "paylater_attempt" drop column if exists "paylater_account";`);
  }

}
