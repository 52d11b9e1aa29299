import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { isPayLaterError, logRef, type PaymentStatus } from "../lib/paylater"
import { linkChanges, type AttemptLinkFields, type AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import type { AttemptSignal } from "../modules/paylater-ledger/attempt-state"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import { registrationOfAttempt, warnUnroutedOnce } from "../medusa-records/registrations"

export type RowAnswer =
  | { kind: "answered"; status: PaymentStatus; row: AttemptRecord }
  /** Asked, and PayLater did not answer: the row is asked again at its next-ask time. */
  | { kind: "unanswered" }
  /** No registration may be asked about this row: asked nowhere, left as it is. */
  | { kind: "unrouted" }

/**
 * PayLater's status for a row, the one road settlement takes to it (a live session's attempt, a
 * detached row, the admin's check of a settled payment): only at the registration that started it,
 * and every answer recorded on the row, which Medusa's authorization then answers from. The provider
 * asks by itself only when Medusa calls it outside settlement (the storefront's own completion of a
 * row PayLater has not said is paid, a session update, Medusa's status and retrieve calls), and
 * records its answer the same way.
 */
export async function askPayLaterAboutRow(
  container: MedusaContainer,
  row: AttemptRecord,
  signal: Exclude<AttemptSignal, "checkout">,
  /** Settlement's links of the row to Medusa, written with the answer (or, unanswered, on their own). */
  links?: AttemptLinkFields
): Promise<RowAnswer> {
  const ledger = ledgerModuleOf(container)!
  const linkOnItsOwn = async () => {
    if (Object.keys(linkChanges(row, links)).length) await ledger.linkAttempt(row.paylater_order_id, links!)
  }
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const registration = registrationOfAttempt(container, row)
  if (!registration.ok) {
    warnUnroutedOnce(logger, row.paylater_order_id, registration.why)
    // Looked at again at its next-ask time (backoff), not on every run.
    await ledger.recordUnanswered(row.paylater_order_id)
    await linkOnItsOwn()
    return { kind: "unrouted" }
  }
  let status: PaymentStatus
  try {
    status = await registration.api.getPaymentStatus(row.paylater_order_id)
  } catch (error) {
    logger.warn(`PayLater: status of ${logRef(row.paylater_order_id)} unavailable (${isPayLaterError(error) ? error.code : "unknown"})`)
    if (!isPayLaterError(error)) throw error
    await ledger.recordUnanswered(row.paylater_order_id)
    await linkOnItsOwn()
    return { kind: "unanswered" }
  }
  const recorded = await ledger.recordStatus(row.paylater_order_id, {
    code: status.code,
    message: status.message,
    paylater_ref: status.payLaterOrderId ?? null,
    signal,
    links,
  })
  return { kind: "answered", status, row: recorded ?? row }
}
