import { defineMiddlewares } from "@medusajs/framework/http"
import { limitPayLaterStarts } from "./store/paylater/start-limit"

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
      // Each PayLater session pushes to a phone or creates a link at PayLater: budgets per number and cart.
      matcher: "/store/payment-collections/:id/payment-sessions",
      method: ["POST"],
      middlewares: [limitPayLaterStarts],
    },
  ],
})
