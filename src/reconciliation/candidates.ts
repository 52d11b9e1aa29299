import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ledgerModuleOf } from "../modules/paylater-ledger/resolve"
import type { AttemptRecord } from "../modules/paylater-ledger/ledger-port"
import { ownersOf } from "../medusa-records/owners"
import { dedupeKeyOf } from "../modules/paylater-ledger/types"
import type { AttemptCandidate, SessionCandidate } from "./select"

type Row = Record<string, any>

const iso = (value: unknown): string | null => (value ? new Date(value as string).toISOString() : null)

/**
 * PayLater sessions created since `since` that may still need PayLater's answer: `pending` ones
 * (no webhook settled them) and `authorized` ones (a paid cart may have failed to become an order).
 * The selection (select.ts) decides which of them are asked about.
 */
export async function loadSessionCandidates(
  container: MedusaContainer,
  providerIds: string[],
  since: Date
): Promise<SessionCandidate[]> {
  if (!providerIds.length) return []
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment_session",
    fields: ["id", "provider_id", "status", "created_at", "authorized_at", "payment_collection_id"],
    filters: { provider_id: providerIds, status: ["pending", "authorized"], created_at: { $gte: since } },
  })
  const rows = data as Row[]
  const [owners, attempts] = await Promise.all([
    ownersOf(container, [...new Set(rows.map((r) => r.payment_collection_id as string))]),
    rows.length
      ? (ledgerModuleOf(container)?.listPayLaterAttempts({ session_id: rows.map((r) => r.id as string), superseded_by: null }) ?? [])
      : [],
  ])
  const attemptOf = new Map((attempts as unknown as AttemptRecord[]).map((a) => [a.session_id, a]))
  const candidates = rows.map((r) => ({
    kind: "session" as const,
    session_id: r.id,
    provider_id: r.provider_id,
    status: r.status,
    created_at: iso(r.created_at) ?? new Date(0).toISOString(),
    authorized_at: iso(r.authorized_at),
    payment_collection_id: r.payment_collection_id,
    ...(owners.get(r.payment_collection_id) ?? { cart_id: null, order_id: null }),
    attempt: attemptOf.get(r.id) ?? null,
  }))
  return markListed(container, candidates)
}

/**
 * A paid row whose cart is an order and whose owner is not recorded is asked about until the owner
 * decision records it; one it found extra is listed instead, and stays so: marked, so it is not
 * settled again every run (select.ts).
 */
async function markListed(container: MedusaContainer, candidates: SessionCandidate[]): Promise<SessionCandidate[]> {
  const unrecorded = candidates.filter((c) => c.order_id && c.attempt?.state === "paid" && !c.attempt.order_id)
  const ledger = ledgerModuleOf(container)
  if (!unrecorded.length || !ledger) return candidates
  const listed = new Set(
    ((await ledger.listPayLaterAttentions(
      { dedupe_key: unrecorded.map((c) => dedupeKeyOf(c.attempt!.paylater_order_id)) },
      { select: ["dedupe_key"] }
    )) as Array<{ dedupe_key: string }>).map((item) => item.dedupe_key)
  )
  return candidates.map((c) => (c.attempt && listed.has(dedupeKeyOf(c.attempt.paylater_order_id)) ? { ...c, listed: true } : c))
}

/**
 * Ledger rows no session candidate stands for: deleted sessions' attempts, superseded ones, Request
 * to Pay whose answer was lost. Open ones have no look-back and no cap: each is asked about at its own
 * next-ask time until PayLater ends it (attempt-state.ts askPayLaterNow). Paid ones changed since `since` that are on
 * no list yet come back too: a settlement that recorded PayLater's "paid" and then stopped (a crash,
 * a database error) before listing it would otherwise leave that money on no list at all.
 */
export async function loadAttemptCandidates(
  container: MedusaContainer,
  sessions: SessionCandidate[],
  since: Date
): Promise<AttemptCandidate[]> {
  const ledger = ledgerModuleOf(container)
  if (!ledger) return []
  const covered = new Set(sessions.map((s) => s.attempt?.paylater_order_id).filter(Boolean))
  // Not only rows marked detached: the mark is written by Medusa's session delete (markSessionGone),
  // which a dropped database connection can lose, leaving a paid row whose session is gone unmarked.
  // Any paid row no session candidate stands for, held by no order and on no list, is decided.
  const detachedPaid = (await ledger.paidAttemptsSince(since)).filter((row) => !covered.has(row.paylater_order_id) && !row.order_id)
  const listed = detachedPaid.length
    ? new Set(
        ((await ledger.listPayLaterAttentions({ dedupe_key: detachedPaid.map((row) => dedupeKeyOf(row.paylater_order_id)) })) as Array<{
          dedupe_key: string
        }>).map((item) => item.dedupe_key)
      )
    : new Set<string>()
  const unlisted = detachedPaid.filter((row) => !listed.has(dedupeKeyOf(row.paylater_order_id)))
  return [...(await ledger.openAttempts()).filter((row) => !covered.has(row.paylater_order_id)), ...unlisted].map((attempt) => ({
    kind: "attempt" as const,
    attempt,
  }))
}
