import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Who started a reconciliation run: Medusa's scheduler, or the plugin's watchdog standing in for a
 * schedule that stopped (a Redis that restarted empty loses Medusa's scheduled jobs). The watchdog
 * judges the schedule by the scheduler's runs only, so its own runs must be told apart.
 */
export class Migration20261126213000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "paylater_reconcile_run" add column if not exists "trigger" text not null default 'schedule';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table if exists "paylater_reconcile_run" drop column if exists "trigger";`);
  }

}
