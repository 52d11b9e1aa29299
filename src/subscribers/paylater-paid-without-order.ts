import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { flagPaidWithoutOrder } from "../paid-without-order/listing"
import { PAYLATER_PAYMENT_SETTLED_EVENT, type PayLaterPaymentSettledData } from "../settlement/settle"

/**
 * Every signal (return, webhook, reconciliation, admin check, poll) announces its settlement; one
 * that left PayLater's money without an order puts it on Settings → PayLater, once per payment, with
 * its refund plan (src/recovery). Repeats and concurrent announcements find the same row.
 */
export default async function payLaterPaidWithoutOrderHandler({ event, container }: SubscriberArgs<PayLaterPaymentSettledData>): Promise<void> {
  if (event.data?.outcome !== "paid_without_order") return
  await flagPaidWithoutOrder(container, event.data.session_id, { signal: event.data.signal })
}

export const config: SubscriberConfig = {
  event: PAYLATER_PAYMENT_SETTLED_EVENT,
  context: { subscriberId: "paylater-paid-without-order" },
}
