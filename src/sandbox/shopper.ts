import type { SandboxContext } from "./context"
import { json, type Reply } from "./http"

/**
 * Shopper lookup. Missing parameters answer 400 with an `error` text (unpublished wording); a
 * lookup that matches nobody answers 404 `{"message":"Shopper not found"}`. Both mobile and email
 * must match, as the published call takes both.
 */
export function handleShopper(ctx: SandboxContext, query: URLSearchParams): Reply {
  const mobile = query.get("mobile_number")?.trim()
  const email = query.get("email")?.trim()
  if (!mobile) return json(400, { error: "Mobile number is required" })
  if (!email) return json(400, { error: "Email is required" })
  const shopper = ctx.options.shoppers.find(
    (s) => s.mobileNumber === mobile && s.email.toLowerCase() === email.toLowerCase()
  )
  if (!shopper) return json(404, { message: "Shopper not found" })
  return json(200, {
    shopperId: shopper.shopperId,
    email: shopper.email,
    mobileNumber: shopper.mobileNumber,
    currentSpendingLimit: shopper.currentSpendingLimit,
    allowedSpendingLimit: shopper.allowedSpendingLimit,
  })
}
