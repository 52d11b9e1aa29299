import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { PayLaterSessionData } from "../providers/paylater/session-data"
import { tombstonesOf } from "../providers/paylater/tombstones"
import { ownersOf } from "../settlement/owners"
import type { SessionCandidate, TombstoneCandidate } from "./select"

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
    fields: ["id", "provider_id", "status", "data", "created_at", "authorized_at", "payment_collection_id"],
    filters: { provider_id: providerIds, status: ["pending", "authorized"], created_at: { $gte: since } },
  })
  const rows = data as Row[]
  const owners = await ownersOf(container, [...new Set(rows.map((r) => r.payment_collection_id as string))])
  return rows.map((r) => ({
    kind: "session" as const,
    session_id: r.id,
    provider_id: r.provider_id,
    status: r.status,
    created_at: iso(r.created_at) ?? new Date(0).toISOString(),
    authorized_at: iso(r.authorized_at),
    data: (r.data ?? {}) as PayLaterSessionData,
    payment_collection_id: r.payment_collection_id,
    ...(owners.get(r.payment_collection_id) ?? { cart_id: null, order_id: null }),
  }))
}

/**
 * Tombstones of deleted PayLater sessions (see providers/paylater/tombstones.ts) on payment
 * collections changed since `since`: writing a tombstone changes the collection, so none is missed.
 */
export async function loadTombstoneCandidates(container: MedusaContainer, since: Date): Promise<TombstoneCandidate[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment_collection",
    fields: ["id", "metadata"],
    filters: { updated_at: { $gte: since } },
  })
  const withTombstones = (data as Row[])
    .map((c) => ({ id: c.id as string, tombstones: tombstonesOf(c.metadata) }))
    .filter((c) => c.tombstones.some((t) => !t.outcome))
  const owners = await ownersOf(
    container,
    withTombstones.map((c) => c.id)
  )
  return withTombstones.flatMap((c) =>
    c.tombstones.map((tombstone) => ({
      kind: "tombstone" as const,
      payment_collection_id: c.id,
      ...(owners.get(c.id) ?? { cart_id: null, order_id: null }),
      tombstone,
    }))
  )
}
