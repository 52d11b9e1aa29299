import { defineMiddlewares } from "@medusajs/framework/http"

export default defineMiddlewares({
  routes: [
    {
      // The webhook route reads the body itself: a malformed notification must get PayLater's
      // documented 403 + JSON, not the 400 Medusa's JSON parser would answer.
      matcher: "/paylater/webhooks",
      method: ["POST"],
      bodyParser: false,
    },
  ],
})
