import { model } from "@medusajs/framework/utils"

/** One run of the reconciliation job: when, and what it found (counts only). The last 50 are kept. */
export const PayLaterReconcileRun = model
  .define("paylater_reconcile_run", {
    id: model.id({ prefix: "plrun" }).primaryKey(),
    started_at: model.dateTime(),
    finished_at: model.dateTime(),
    ran: model.boolean().default(true),
    checked: model.number().default(0),
    eligible: model.number().default(0),
    outcomes: model.json().nullable(),
    error: model.text().nullable(),
    /** "schedule" (Medusa's scheduler) or "watchdog" (schedule-watchdog.ts, while the schedule is stopped). */
    trigger: model.text().default("schedule"),
  })
  .indexes([{ on: ["started_at"] }])
