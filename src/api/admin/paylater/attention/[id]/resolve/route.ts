import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { requireLedgerModule, attentionItem, bookConfirmedRefund, loadAttention } from "../../attention"

interface ResolveBody {
  resolution?: unknown
  note?: unknown
}

/**
 * POST /admin/paylater/attention/:id/resolve { resolution, note? }: closes an item. For a refund
 * whose outcome was unknown, `refunded` or `not_refunded` is what the operator found in PayLater's
 * merchant portal: it lifts the refund guard, and a confirmed refund is recorded on the order too
 * (never sent again). Answers `{ attention, booked, booking_error }`.
 */
export async function POST(req: AuthenticatedMedusaRequest<ResolveBody>, res: MedusaResponse): Promise<void> {
  const body = (req.body ?? {}) as ResolveBody
  if (typeof body.resolution !== "string" || body.resolution.length > 40) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, 'resolution is required, e.g. "refunded" or "not_refunded".')
  }
  if (body.note !== undefined && body.note !== null && (typeof body.note !== "string" || body.note.length > 1000)) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "note must be text of at most 1000 characters.")
  }
  const actorId = req.auth_context?.actor_id ?? null
  const before = await attentionItem(req.scope, req.params.id)
  const resolved = await requireLedgerModule(req.scope).resolveAttention(req.params.id, {
    resolution: body.resolution,
    note: (body.note as string | undefined) ?? null,
    actor_id: actorId,
  })
  const booking =
    before.status === "open" && resolved.kind === "refund_outcome_unknown" && resolved.resolution === "refunded"
      ? await bookConfirmedRefund(req.scope, resolved, actorId)
      : { booked: false, booking_error: null }
  res.json({ attention: await loadAttention(req.scope, resolved), ...booking })
}
