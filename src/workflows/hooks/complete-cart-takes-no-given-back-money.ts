import { completeCartWorkflow } from "@medusajs/medusa/core-flows"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { PROCESSABLE_SESSION_STATUSES } from "../../modules/paylater-ledger/money-plan"
import { ledgerModuleOf } from "../../modules/paylater-ledger/resolve"
import { PAYLATER_PROVIDER } from "../../medusa-records/session"
import { paymentOfAttempt } from "../../medusa-records/payment-attempt"

type HookSession = { id?: string; provider_id?: string; status?: string } | null | undefined

/**
 * Every road to an order goes through Medusa's cart completion: the storefront's own
 * `POST /store/carts/:id/complete`, the payment webhook's processPaymentWorkflow, and the plugin's
 * settlement. Before it creates the order, a PayLater session whose paid attempt's money went back
 * (refunded in full or in part, or a refund whose outcome is unknown) is refused, whatever Medusa's
 * own session says: the money plan's executor retires such a session right after the refund, and
 * this is the guarantee that holds if the process died in between.
 */
completeCartWorkflow.hooks.validate(async ({ input, cart }, { container }) => {
  const ledger = ledgerModuleOf(container)
  if (!ledger) return
  // A repeat of a completion that placed the order returns that order: nothing is taken again.
  const { data: placed } = await container
    .resolve(ContainerRegistrationKeys.QUERY)
    .graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: (input as { id: string }).id } })
  if (placed.length) return
  const sessions = ((cart as { payment_collection?: { payment_sessions?: HookSession[] } })?.payment_collection?.payment_sessions ?? []).filter(
    (s): s is { id: string; provider_id: string; status: string } =>
      !!s?.id && PAYLATER_PROVIDER.test(String(s.provider_id ?? "")) && PROCESSABLE_SESSION_STATUSES.includes(String(s.status))
  )
  for (const session of sessions) {
    for (const row of await ledger.attemptsOfSession(session.id)) {
      if (row.state !== "paid" || row.order_id) continue
      // A replaced link is not what this session's authorization takes, unless Medusa's payment names it.
      if (row.superseded_by && !(await paymentOfAttempt(container, row))) continue
      if (await ledger.moneyGivenBack(row.paylater_order_id)) {
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          "The PayLater payment on this cart was refunded, so it cannot place the order. Choose a payment method again to pay."
        )
      }
    }
  }
})
