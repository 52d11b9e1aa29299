import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { activityModuleOf } from "../modules/paylater-activity/resolve"
import { toAmountText } from "../providers/paylater/money"
import type { PayLaterSessionData } from "../providers/paylater/session-data"
import {
  attemptFromSession,
  attemptFromTombstone,
  legacyTombstonesOf,
  type ImportedAttempt,
} from "../settlement/legacy-attempts"
import { PAYLATER_PROVIDER } from "../medusa-records/session"

const PAGE = 500

type Row = Record<string, any>

/**
 * Upgrade to the attempt ledger (issue 17): a store upgrading with payments in flight loses none.
 * Every PayLater session's current attempt and every tombstone its payment collection kept
 * (`paylater_deleted_sessions`: deleted and superseded attempts) becomes a ledger row, open unless
 * Medusa's own records say it ended, so reconciliation asks PayLater about it until it expires.
 * Run once by `medusa db:migrate`; safe to run again (existing rows are kept).
 */
export async function backfillAttemptLedger(container: MedusaContainer): Promise<{ sessions: number; tombstones: number; added: number }> {
  const activity = activityModuleOf(container)
  if (!activity) {
    // Medusa marks a migration script done once it returns: finishing silently here would leave
    // every payment in flight outside the ledger for good.
    throw new Error("PayLater: the attempt ledger cannot be filled: the plugin's paylater_activity module is not loaded (add the plugin to medusa-config's plugins)")
  }
  const payment = container.resolve(Modules.PAYMENT)
  const rows: ImportedAttempt[] = []
  let sessions = 0
  let tombstones = 0
  for (let skip = 0; ; skip += PAGE) {
    const page = (await payment.listPaymentSessions(
      {},
      { select: ["id", "provider_id", "status", "data", "amount", "raw_amount", "currency_code", "payment_collection_id"], skip, take: PAGE, order: { id: "ASC" } }
    )) as unknown as Row[]
    for (const s of page.filter((s) => PAYLATER_PROVIDER.test(s.provider_id))) {
      const row = attemptFromSession({
        ...(s as { id: string; provider_id: string; status: string; currency_code: string; payment_collection_id: string }),
        data: (s.data ?? {}) as PayLaterSessionData,
        amount: toAmountText(s.raw_amount ?? s.amount),
      })
      if (row) {
        rows.push(row)
        sessions++
      }
    }
    if (page.length < PAGE) break
  }
  for (let skip = 0; ; skip += PAGE) {
    const page = (await payment.listPaymentCollections(
      {},
      { select: ["id", "metadata", "currency_code"], skip, take: PAGE, order: { id: "ASC" } }
    )) as unknown as Row[]
    for (const c of page) {
      for (const t of legacyTombstonesOf(c.metadata)) {
        rows.push(attemptFromTombstone(c.id, c.currency_code ?? "qar", t))
        tombstones++
      }
    }
    if (page.length < PAGE) break
  }
  // A tombstone and its live session can name the same order id: the session's view comes first.
  const added = await activity.importAttempts(rows)
  container
    .resolve(ContainerRegistrationKeys.LOGGER)
    .info(`PayLater: attempt ledger filled from ${sessions} payment sessions and ${tombstones} tombstones (${added} rows added)`)
  return { sessions, tombstones, added }
}

export default async function run({ container }: { container: MedusaContainer }): Promise<void> {
  await backfillAttemptLedger(container)
}
