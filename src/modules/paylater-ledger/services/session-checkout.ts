import type { Context } from "@medusajs/framework/types"
import type { SqlManager } from "./sql"

/**
 * The checkout a payment session belongs to, read from Medusa's own records (its payment module's
 * session row and the cart–collection link) in the database the ledger shares with them. Medusa
 * writes the session row before it asks the provider to start, so this answers for every session,
 * also those Medusa creates by itself (a failed completion's rollback recreates one, with no store
 * request around it): the attempt is on its cart from its first write, and the PayLater page counts
 * each cart once (docs/funnel.md).
 */
export interface SessionCheckout {
  payment_collection_id: string | null
  cart_id: string | null
}

const CHECKOUT_OF_SESSION = `
select ps.payment_collection_id, cpc.cart_id
from payment_session ps
left join cart_payment_collection cpc on cpc.payment_collection_id = ps.payment_collection_id and cpc.deleted_at is null
where ps.id = ?
limit 1
`

/**
 * Null when Medusa has no such session (yet), or its tables are not where this expects them (a
 * store with its modules in separate databases): the attempt is then linked at settlement, as before.
 */
export async function checkoutOfSession(sharedContext: Context, sessionId: string): Promise<SessionCheckout | null> {
  try {
    const [row] = await (sharedContext.manager as unknown as SqlManager).execute(CHECKOUT_OF_SESSION, [sessionId])
    if (!row) return null
    return { payment_collection_id: (row.payment_collection_id as string | null) ?? null, cart_id: (row.cart_id as string | null) ?? null }
  } catch {
    return null
  }
}
