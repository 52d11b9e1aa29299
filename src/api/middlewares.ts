import { defineMiddlewares, type MedusaNextFunction, type MedusaRequest, type MedusaResponse } from "@medusajs/framework/http"
import { withPaymentCollection } from "../providers/paylater/request-context"
import { limitPayLaterStarts } from "./store/paylater/start-limit"

/** The collection in the path travels to the provider's write-ahead (request-context.ts). */
function rememberPaymentCollection(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction): void {
  const id = req.params?.id
  if (typeof id === "string" && id) {
    withPaymentCollection(id, () => next())
    return
  }
  next()
}

export default defineMiddlewares({
  routes: [
    {
      // The webhook route reads the body itself: a malformed notification must get PayLater's
      // documented 403 + JSON, not the 400 Medusa's JSON parser would answer.
      matcher: "/paylater/webhooks",
      method: ["POST"],
      bodyParser: false,
    },
    {
      // Each PayLater session pushes to a phone or creates a link at PayLater: budgets per number and
      // cart. The collection in the path then travels to the provider's write-ahead.
      matcher: "/store/payment-collections/:id/payment-sessions",
      method: ["POST"],
      middlewares: [limitPayLaterStarts, rememberPaymentCollection],
    },
  ],
})
