import type { PayLaterEventRecord, RecordPayLaterEventInput } from "../modules/paylater-ledger/types"
import type { ReturnDecision, ReturnOutcomeHint } from "../modules/paylater-ledger/attempt-state"

/**
 * Pure mapping between what happened and what the activity log stores / the admin shows. The
 * stored `detail` is built here and only here, from an allow-list of fields: nothing secret, no
 * full mobile number, no raw webhook body.
 */

export type ActivityTone = "grey" | "green" | "red" | "orange" | "blue"

/** Where a status check came from (stored in detail.source). */
export type CheckSource = "admin" | "storefront" | "order_widget" | "reconciliation"

/** The shopper came back through the return route. Reloads of the same result count as repeats. */
export function returnEvent(
  context: { session_id: string; attempt: { paylater_order_id: string } | null; order_id: string | null },
  decision: ReturnDecision,
  outcome: ReturnOutcomeHint
): RecordPayLaterEventInput {
  const status = decision.kind === "failure" ? decision.reason : decision.kind
  const orderId = context.attempt?.paylater_order_id ?? context.session_id
  return {
    session_id: context.session_id,
    paylater_order_id: orderId,
    kind: "shopper_returned",
    status,
    detail: {
      url: outcome ?? null,
      ...(decision.kind === "success" ? { order_id: decision.order_id } : {}),
    },
    dedupe_key: `return:${orderId}:${status}`,
  }
}

/** A notification that passed verification. Identical repeats (same order, same status) count as one. */
export function webhookEvent(
  body: Record<string, unknown>,
  verified: { session_id: string | null; action: string }
): RecordPayLaterEventInput | null {
  if (!verified.session_id) {
    return null
  }
  // Own members only, like the verification (a hostile body may name prototype members).
  const own = (key: string): unknown => (Object.prototype.hasOwnProperty.call(body, key) ? body[key] : undefined)
  const rawOrderId = own("orderId")
  const rawStatus = own("status")
  const rawTimestamp = own("timestamp")
  const orderId = typeof rawOrderId === "string" ? rawOrderId.slice(0, 200) : verified.session_id
  const status = typeof rawStatus === "string" ? rawStatus.slice(0, 32) : verified.action
  const timestamp =
    typeof rawTimestamp === "number" || typeof rawTimestamp === "string" ? String(rawTimestamp).slice(0, 32) : null
  return {
    session_id: verified.session_id,
    paylater_order_id: orderId,
    kind: "webhook_verified",
    status,
    detail: { action: verified.action, paylater_timestamp: timestamp },
    dedupe_key: `webhook:${orderId}:${status}`,
  }
}

export interface CheckOutcome {
  session_id: string
  paylater_order_id: string | null
  source: CheckSource
  /** PayLater's answer ("success", "pending", "failed", "not_initiated"), or "unreachable". */
  paylater_status: string
  /** What Medusa shows for the session afterwards (waiting, processing, paid, paid_not_placed, declined, expired). */
  state: string
  /** True when this check made the store record the payment (it did what a webhook would have). */
  processed?: boolean
  /** The order's records disagree with PayLater (e.g. captured here, failed there). */
  mismatch?: boolean
  actor_id?: string | null
}

/**
 * A status check. Staff checks are each recorded (an explicit action); automatic ones (waiting
 * screen, widget polls, reconciliation) collapse into one row per answer and source.
 */
export function checkEvent(outcome: CheckOutcome): RecordPayLaterEventInput {
  const orderId = outcome.paylater_order_id ?? outcome.session_id
  return {
    session_id: outcome.session_id,
    paylater_order_id: orderId,
    kind: "status_checked",
    status: outcome.paylater_status,
    detail: {
      source: outcome.source,
      state: outcome.state,
      processed: !!outcome.processed,
      mismatch: !!outcome.mismatch,
      ...(outcome.actor_id ? { actor_id: outcome.actor_id } : {}),
    },
    dedupe_key: outcome.source === "admin" ? null : `check:${orderId}:${outcome.source}:${outcome.paylater_status}:${outcome.state}`,
  }
}

export interface DescribedEvent {
  title: string
  tone: ActivityTone
  detail: string | null
}

const RETURN_TEXT: Record<string, DescribedEvent> = {
  success: { title: "Shopper redirected back: paid", tone: "green", detail: null },
  pending: { title: "Shopper redirected back: PayLater still pending", tone: "orange", detail: null },
  declined: { title: "Shopper redirected back: declined", tone: "red", detail: null },
  expired: { title: "Shopper redirected back: link expired", tone: "grey", detail: null },
  abandoned: { title: "Shopper left PayLater's page without paying", tone: "orange", detail: null },
  error: { title: "Shopper redirected back: paid, but the order could not be placed", tone: "red", detail: null },
}

const WEBHOOK_TONE: Record<string, ActivityTone> = { success: "green", failed: "red", pending: "orange" }

const CHECK_SOURCE: Record<string, string> = {
  admin: "Checked with PayLater by staff",
  storefront: "Status checked (waiting screen)",
  order_widget: "Status checked (Request to Pay card)",
  reconciliation: "Reconciled with PayLater",
}

const CHECK_TONE: Record<string, ActivityTone> = {
  success: "green",
  failed: "red",
  pending: "orange",
  not_initiated: "orange",
  unreachable: "red",
}

function str(value: unknown): string | null {
  return typeof value === "string" && value.length ? value : null
}

/** How one stored event reads in the admin. */
export function describeEvent(event: Pick<PayLaterEventRecord, "kind" | "status" | "detail">): DescribedEvent {
  const detail = (event.detail ?? {}) as Record<string, unknown>
  const status = event.status ?? "unknown"
  switch (event.kind) {
    case "shopper_returned": {
      const known = RETURN_TEXT[status] ?? { title: `Shopper redirected back: ${status}`, tone: "grey" as const, detail: null }
      const url = str(detail.url)
      return { ...known, detail: url ? `through PayLater's ${url === "fail" ? "failure" : "success"} URL` : null }
    }
    case "webhook_verified":
      // PayLater's own timestamp stays in the log only: its unit is not published.
      return { title: `Webhook received and verified: ${status}`, tone: WEBHOOK_TONE[status] ?? "grey", detail: null }
    case "status_checked": {
      const source = str(detail.source) ?? "admin"
      const parts: string[] = [status === "unreachable" ? "PayLater did not answer" : `PayLater says ${status}`]
      if (detail.processed === true) parts.push("payment recorded by this check")
      if (detail.mismatch === true) parts.push("does not match the store's records")
      return {
        title: CHECK_SOURCE[source] ?? "Status checked",
        tone: detail.mismatch === true ? "red" : (CHECK_TONE[status] ?? "grey"),
        detail: parts.join("; "),
      }
    }
    default:
      return { title: String(event.kind), tone: "grey", detail: null }
  }
}
