import { MathBN } from "@medusajs/framework/utils"
import type { BigNumberInput } from "@medusajs/framework/types"
import { storedAmountText } from "../providers/paylater/money"

/**
 * What became of a paid attempt after it was paid, from the ledger's own records (never session
 * data): its listing on Settings → PayLater (attention items) and the refunds sent for it (refund
 * attempts). So the order card tells the whole story of an extra payment: listed, then refunded by
 * the rule or by a person, or still waiting for one. Pure: rows in.
 */

/** A row of the refund attempts table, as read for the card. */
export interface RefundRow {
  paylater_order_id: string
  amount: BigNumberInput
  raw_amount?: BigNumberInput | null
  status: string
  sent_at: Date | string
  settled_at: Date | string | null
}

/** An attention item of Settings → PayLater, as read for the card. */
export interface ListingRow {
  paylater_order_id: string | null
  kind: string
  status: string
  resolution: string | null
  resolution_note: string | null
  resolved_by: string | null
  resolved_at: Date | string | null
  created_at?: Date | string | null
}

export interface AttemptRefund {
  /** Two-decimal QAR text: the sum PayLater confirmed refunded (sent and answered, or confirmed by a person). */
  amount: string
  /** When the last of them was confirmed. */
  at: string | null
  /**
   * rule: refunded automatically (paid without an order); person: from Settings → PayLater, or a
   * person confirmed PayLater's portal shows it; order: refunded on the order (Medusa's refund).
   */
  by: "rule" | "person" | "order"
  /** The admin user, when a person did it (their email when known, else their id). */
  actor: string | null
  /** The listing's own words, e.g. "Refunded 330.00 QAR in full automatically (paid without an order)." */
  note: string | null
}

export interface AttemptListing {
  /** The attention kind (Settings → PayLater's "What" column). */
  kind: string
  status: "open" | "resolved"
  /** How it was resolved (Settings → PayLater's action), once resolved. */
  resolution: string | null
  resolved_at: string | null
}

export interface Aftercare {
  refund: AttemptRefund | null
  listing: AttemptListing | null
}

const iso = (at: Date | string | null | undefined): string | null => (at ? new Date(at).toISOString() : null)
const time = (at: Date | string | null | undefined): number => (at ? new Date(at).getTime() : 0)

// A refund PayLater confirmed (its answer) or a person confirmed from PayLater's portal.
const REFUNDED = new Set(["succeeded", "refunded"])

/** The attempt's listing and confirmed refunds; `actors` names admin users by id. */
export function aftercareOf(
  paylaterOrderId: string,
  refunds: RefundRow[],
  listings: ListingRow[],
  actors: ReadonlyMap<string, string> = new Map()
): Aftercare {
  const own = listings
    .filter((l) => l.paylater_order_id === paylaterOrderId)
    .sort((a, b) => Number(b.status === "open") - Number(a.status === "open") || time(b.created_at) - time(a.created_at))
  // The payment's own listing (paid without an order, paid after the cart changed) before a refund's.
  const listed = own.find((l) => l.kind !== "refund_outcome_unknown") ?? own[0] ?? null
  const done = refunds.filter((r) => r.paylater_order_id === paylaterOrderId && REFUNDED.has(r.status))
  let refund: AttemptRefund | null = null
  if (done.length) {
    const total = done.reduce((sum, r) => MathBN.add(sum, MathBN.convert(r.raw_amount ?? r.amount)), MathBN.convert(0))
    const last = done.reduce((a, b) => (time(b.settled_at ?? b.sent_at) > time(a.settled_at ?? a.sent_at) ? b : a))
    const resolver = own.find((l) => l.resolution === "refunded")
    const by: AttemptRefund["by"] = resolver ? (resolver.resolved_by ? "person" : "rule") : "order"
    refund = {
      amount: storedAmountText({ amount: total }),
      at: iso(last.settled_at ?? last.sent_at),
      by,
      actor: resolver?.resolved_by ? (actors.get(resolver.resolved_by) ?? resolver.resolved_by) : null,
      note: resolver?.resolution_note ?? null,
    }
  }
  return {
    refund,
    listing: listed
      ? {
          kind: listed.kind,
          status: listed.status === "open" ? "open" : "resolved",
          resolution: listed.resolution ?? null,
          resolved_at: iso(listed.resolved_at),
        }
      : null,
  }
}
