import { toCheckoutError } from "../errors"
import { SHOPPER_MESSAGES } from "../messages"
import { fetchPlacedOrder, leaveForPlacedOrder, orderConfirmationPath, placedOrderOf } from "../placed"
import type { PayLaterSdk } from "../sdk"

const placedAnswer = () => Object.assign(new Error(`${SHOPPER_MESSAGES.already_placed.en} (order_01ABC)`), { status: 409 })

describe("leading the shopper to an order already placed (issue 34)", () => {
  it("makes the DTC starter's confirmation route, /[countryCode]/order/[id]/confirmed", () => {
    expect(orderConfirmationPath("qa", "order_01ABC")).toBe("/qa/order/order_01ABC/confirmed")
    expect(orderConfirmationPath("QA", "order_01ABC")).toBe("/qa/order/order_01ABC/confirmed")
    // Without a usable country segment, the route the starter's middleware completes.
    expect(orderConfirmationPath("", "order_01ABC")).toBe("/order/order_01ABC/confirmed")
    expect(() => orderConfirmationPath("qa", "../admin")).toThrow(/Not an order id/)
  })

  it("finds the order in the store's 'already placed' answer, and in nothing else", () => {
    expect(placedOrderOf(toCheckoutError(placedAnswer()))).toEqual({ orderId: "order_01ABC" })
    expect(placedOrderOf(toCheckoutError(Object.assign(new Error(SHOPPER_MESSAGES.already_placed.en), { status: 409 })))).toBeNull()
    expect(placedOrderOf(toCheckoutError(Object.assign(new Error("Something (order_01EVIL)"), { status: 409 })))).toBeNull()
    expect(placedOrderOf(new Error("x"))).toBeNull()
  })

  it("in one call forgets the cart first, then replaces the page with the confirmation", async () => {
    const calls: string[] = []
    await leaveForPlacedOrder(
      { orderId: "order_01ABC" },
      { countryCode: "qa", forgetCart: async () => void calls.push("forget"), navigate: (path) => void calls.push(`go ${path}`) }
    )
    expect(calls).toEqual(["forget", "go /qa/order/order_01ABC/confirmed"])
  })

  it("still leads to the order when forgetting the cart fails", async () => {
    const went: string[] = []
    await leaveForPlacedOrder(
      { orderId: "order_01ABC" },
      { countryCode: "qa", forgetCart: () => Promise.reject(new Error("cookies unavailable")), navigate: (path) => void went.push(path) }
    )
    expect(went).toEqual(["/qa/order/order_01ABC/confirmed"])
  })

  it("asks the store which order a completed cart became: the order, null while not an order, other errors thrown", async () => {
    const answers: Record<string, () => Promise<unknown>> = {
      cart_done: async () => ({ order_id: "order_01ABC" }),
      cart_open: () => Promise.reject(Object.assign(new Error("This cart is not an order."), { status: 404 })),
      cart_down: () => Promise.reject(Object.assign(new Error("Bad gateway"), { status: 502 })),
    }
    const asked: string[] = []
    const sdk = {
      client: {
        fetch: (path: string) => {
          asked.push(path)
          return answers[path.split("/")[4]]()
        },
      },
    } as unknown as PayLaterSdk
    await expect(fetchPlacedOrder(sdk, "cart_done")).resolves.toEqual({ orderId: "order_01ABC" })
    await expect(fetchPlacedOrder(sdk, "cart_open")).resolves.toBeNull()
    await expect(fetchPlacedOrder(sdk, "cart_down")).rejects.toThrow("Bad gateway")
    expect(asked[0]).toBe("/store/paylater/carts/cart_done/order")
  })

  it("recognises 'paid, not placed' from a start, never as something to pay again", () => {
    const error = toCheckoutError(Object.assign(new Error(SHOPPER_MESSAGES.paid_not_placed.en), { status: 409 }))
    expect(error).toMatchObject({ code: "paid_not_placed", kind: "refused" })
    expect(error.messageIn("ar")).toBe(SHOPPER_MESSAGES.paid_not_placed.ar)
  })
})
