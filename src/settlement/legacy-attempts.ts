import type { AttemptKind, AttemptState } from "../modules/paylater-activity/attempt-state"
import type { PayLaterSessionData } from "../providers/paylater/session-data"
import { PAYLATER_RTP_PROVIDER } from "../medusa-records/session"

/**
 * How a store kept track of PayLater attempts before the attempt ledger, read once by the upgrade
 * (src/migration-scripts): each PayLater session's data, and the "tombstones" of deleted or
 * superseded attempts in its payment collection's metadata. Pure, unit-tested.
 */

export const LEGACY_TOMBSTONES_KEY = "paylater_deleted_sessions"

export interface LegacyTombstone {
  session_id: string
  provider_id: string
  paylater_order_id: string
  amount: string
  expires_at: string | null
  created_at: string | null
  deleted_at: string
  outcome?: "paid" | "failed"
  paylater_ref?: string | null
  superseded_by?: string
}

export function legacyTombstonesOf(metadata: Record<string, unknown> | null | undefined): LegacyTombstone[] {
  const list = metadata?.[LEGACY_TOMBSTONES_KEY]
  if (!Array.isArray(list)) return []
  return list.filter(
    (t): t is LegacyTombstone =>
      !!t && typeof t === "object" && typeof t.session_id === "string" && typeof t.paylater_order_id === "string" && typeof t.amount === "string"
  )
}

/** A ledger row as the upgrade writes it. */
export interface ImportedAttempt {
  paylater_order_id: string
  kind: AttemptKind
  session_id: string
  provider_id: string
  payment_collection_id: string
  amount: string
  currency_code: string
  expires_at: Date | null
  state: AttemptState
  paylater_ref: string | null
  superseded_by: string | null
  session_gone_at: Date | null
}

const kindOf = (providerId: string): AttemptKind => (PAYLATER_RTP_PROVIDER.test(providerId) ? "request_to_pay" : "link")
const date = (iso: unknown): Date | null => (typeof iso === "string" && !Number.isNaN(Date.parse(iso)) ? new Date(iso) : null)

/**
 * A live session's current attempt. Only Medusa's own status ends it (authorized/captured: PayLater
 * said paid; error/canceled: PayLater said failed); everything else stays open, so reconciliation
 * asks PayLater again rather than trusting what the session data says.
 */
export function attemptFromSession(session: {
  id: string
  provider_id: string
  status: string
  data: PayLaterSessionData | null
  amount: string
  currency_code: string
  payment_collection_id: string
}): ImportedAttempt | null {
  const data = session.data ?? {}
  const orderId = typeof data.paylater_order_id === "string" ? data.paylater_order_id : null
  if (!orderId) return null
  const state: AttemptState =
    session.status === "authorized" || session.status === "captured"
      ? "paid"
      : session.status === "error"
        ? data.paylater_failure_reason === "expired" ? "expired" : "declined"
        : session.status === "canceled"
          ? "expired"
          : "open"
  return {
    paylater_order_id: orderId,
    kind: kindOf(session.provider_id),
    session_id: session.id,
    provider_id: session.provider_id,
    payment_collection_id: session.payment_collection_id,
    amount: session.amount,
    currency_code: session.currency_code,
    expires_at: date(data.expires_at),
    state,
    paylater_ref: typeof data.paylater_ref === "string" ? data.paylater_ref : null,
    superseded_by: null,
    session_gone_at: null,
  }
}

/** A tombstone: open unless the old reconciliation settled it (paid was reported, failed ended it). */
export function attemptFromTombstone(collectionId: string, currencyCode: string, t: LegacyTombstone): ImportedAttempt {
  return {
    paylater_order_id: t.paylater_order_id,
    kind: kindOf(t.provider_id),
    session_id: t.session_id,
    provider_id: t.provider_id,
    payment_collection_id: collectionId,
    amount: t.amount,
    currency_code: currencyCode,
    expires_at: date(t.expires_at),
    state: t.outcome === "paid" ? "paid" : t.outcome === "failed" ? "declined" : "open",
    paylater_ref: t.paylater_ref ?? null,
    superseded_by: t.superseded_by ?? null,
    session_gone_at: t.superseded_by ? null : date(t.deleted_at),
  }
}
