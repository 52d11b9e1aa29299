import type { SandboxHandle } from "../../helpers/sandbox"

/**
 * Resolves once PayLater's `success` notification for the order was answered 2xx by the store: the
 * store has heard of the payment (what it did with it is for the spec to look at).
 */
export async function successDelivered(paylater: SandboxHandle, orderId: string): Promise<void> {
  await paylater().waitForDeliveries(
    (d) => d.some((x) => x.orderId === orderId && x.status === "success" && x.outcome === "delivered"),
    20_000
  )
}
