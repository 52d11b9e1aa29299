import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import type { RecordPayLaterEventInput } from "../modules/paylater-ledger/types"
import { viewOfSession } from "../settlement/attempt-view"
import type { SettlementResult } from "../settlement/settle"
import { checkEvent, type CheckSource } from "./events"
import { logRef } from "../lib/paylater"
import { lastStatusOf } from "./attempt-facts"

/**
 * Best effort, by design: the activity log is for people, the payment path must never wait on it or
 * fail because of it. Errors are logged, never thrown. Fills in the payment collection (so the
 * history of a replaced attempt stays attached to the order) when the caller did not know it.
 * Resolves to true when the event was stored.
 */
export async function recordPayLaterActivity(
  container: MedusaContainer,
  event: RecordPayLaterEventInput | null
): Promise<boolean> {
  if (!event) {
    return false
  }
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  try {
    // No module (the app did not register it): nothing is recorded.
    const service = ledgerModuleOf(container)
    if (!service) {
      return false
    }
    let collectionId = event.payment_collection_id ?? null
    if (!collectionId) {
      const [session] = await container
        .resolve(Modules.PAYMENT)
        .listPaymentSessions({ id: event.session_id }, { select: ["id", "payment_collection_id"], take: 1 })
      collectionId = session?.payment_collection_id ?? null
    }
    await service.record({ ...event, payment_collection_id: collectionId })
    return true
  } catch (error) {
    logger.warn(
      `PayLater activity: could not record ${event.kind} for ${logRef(event.session_id)}: ${(error as Error)?.message ?? error}`
    )
    return false
  }
}

/**
 * An automatic status check (a polling screen, the reconciliation job) for the admin's history:
 * recorded only when PayLater was asked, not awaited (one entry per answer, repeats counted).
 */
export function recordAutomaticCheck(
  container: MedusaContainer,
  result: SettlementResult,
  source: Exclude<CheckSource, "admin">
): void {
  const session = result.session
  if (!session || !result.asked) {
    return
  }
  void recordPayLaterActivity(
    container,
    checkEvent({
      session_id: session.session_id,
      paylater_order_id: session.attempt?.paylater_order_id ?? null,
      source,
      paylater_status: result.outcome === "unavailable" ? "unreachable" : (lastStatusOf(session.attempt) ?? "unknown"),
      state: viewOfSession(session, new Date()).status,
      // Reconciliation says whether it placed the payment; a screen's check is only an answer.
      processed: source === "reconciliation" && result.outcome === "paid" && result.changed,
    })
  )
}
