import { defineMiddlewares } from "@medusajs/framework/http"
import { refuseAlreadyPlaced } from "./store/paylater/already-placed"
import { guardPayLaterStart } from "./store/paylater/start-guard"
import { oneStartAtATime } from "./store/paylater/one-start-at-a-time"
import { finishAbandonedStoreCompletion } from "./store/carts/abandoned-completion-cleanup"
import { inCartCompletionScope } from "./store/carts/completion-scope"
import { cancelOnlyWithTheOrdersMoney, refundOnlyTheOrdersMoney } from "./admin/payments/order-page-refund"

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
      // One PayLater start per collection at a time (one-start-at-a-time.ts). A placed order takes
      // no new PayLater payment (already-placed.ts, before the budgets: a refused start spends none). Each PayLater session pushes to a phone or creates a link at PayLater:
      // budgets, the shopper look-up with the cart's own email, and the facts the provider needs
      // (start-guard.ts).
      matcher: "/store/payment-collections/:id/payment-sessions",
      method: ["POST"],
      middlewares: [oneStartAtATime, refuseAlreadyPlaced, guardPayLaterStart],
    },
    {
      // Medusa's own cart completion, when its workflow engine abandons the run part-way: the run's
      // rollback finished before the error answer (medusa-effects/abandoned-completion.ts).
      matcher: "/store/carts/:id/complete",
      method: ["POST"],
      // The route's completion runs in the completion scope: its rollback refunds no PayLater payment
      // no order holds (completion-scope.ts).
      middlewares: [finishAbandonedStoreCompletion, inCartCompletionScope],
    },
    {
      // The order page's Refund books the refund on the order: only the order's own PayLater money
      // is refunded there (order-page-refund.ts); money extra to it goes back from Settings → PayLater.
      matcher: "/admin/payments/:id/refund",
      method: ["POST"],
      middlewares: [refundOnlyTheOrdersMoney],
    },
    {
      // The order's cancel refunds every captured payment on it and books them on the order: not
      // while an extra PayLater payment is among them (order-page-refund.ts).
      matcher: "/admin/orders/:id/cancel",
      method: ["POST"],
      middlewares: [cancelOnlyWithTheOrdersMoney],
    },
  ],
})
