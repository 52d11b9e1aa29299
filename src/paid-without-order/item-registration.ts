import type { MedusaContainer } from "@medusajs/framework/types"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import type { PayLaterLedgerModuleService } from "../modules/paylater-ledger/service"
import type { AttentionRecord } from "../modules/paylater-ledger/types"
import { registrationOfAttempt, type AttemptRegistration } from "../medusa-records/registrations"

/**
 * The registration a listed payment is refunded at: its attempt's (registrationOfAttempt). An item
 * whose PayLater order has no ledger row goes by the provider id it was listed with.
 */
export function registrationOfItem(
  container: MedusaContainer,
  item: AttentionRecord,
  row: AttemptRecord | null
): AttemptRegistration | { ok: false; why: string } {
  if (row) return registrationOfAttempt(container, row)
  const providerId = typeof item.detail?.provider_id === "string" ? item.detail.provider_id : null
  return registrationOfAttempt(container, { provider_id: providerId, paylater_account: null, kind: "link" })
}

/** The answer to a refund no configured registration may send. */
export function notRefundableMessage(why: string): string {
  return `This PayLater payment cannot be refunded from the store: ${why}. Refund it in that PayLater account's merchant portal, then mark it resolved.`
}

/** Why no configured registration may refund this item's payment, or null when its own one may. */
export async function whyNotRefundable(container: MedusaContainer, ledger: PayLaterLedgerModuleService, item: AttentionRecord): Promise<string | null> {
  const row = item.paylater_order_id ? await ledger.findAttempt(item.paylater_order_id) : null
  const registration = registrationOfItem(container, item, row)
  return registration.ok ? null : registration.why
}

/** The open items among these whose payment no configured registration may refund (one ledger read). */
export async function unroutedItems(container: MedusaContainer, ledger: PayLaterLedgerModuleService, items: AttentionRecord[]): Promise<Set<string>> {
  const open = items.filter((i) => i.status === "open")
  const ids = [...new Set(open.map((i) => i.paylater_order_id).filter((id): id is string => !!id))]
  const rows = ids.length ? ((await ledger.listPayLaterAttempts({ paylater_order_id: ids })) as unknown as AttemptRecord[]) : []
  const byId = new Map(rows.map((r) => [r.paylater_order_id, r]))
  return new Set(open.filter((i) => !registrationOfItem(container, i, byId.get(i.paylater_order_id ?? "") ?? null).ok).map((i) => i.id))
}
