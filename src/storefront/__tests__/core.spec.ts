import {
  describeInstalments,
  failureMessage,
  fetchInstalments,
  isFinalState,
  nextDelay,
  NOT_PLACED_WATCH,
  payLaterButtonText,
  PayLaterCheckoutError,
  payLaterChoice,
  paymentWasTaken,
  pollRequestToPay,
  readPayLaterReturn,
  SHOPPER_MESSAGES,
  startLinkCheckout,
  startRequestToPay,
  suggestedMobileNumber,
  toCheckoutError,
  waitForPendingOrder,
  type InstalmentOffer,
  type RequestToPayState,
} from "../index"
import { cartWithLinkSession, collectionWith, RTP_STATE_ROUTE, startFakeStore, waiting, type FakeStore } from "./fake-store"

const cart = { id: "cart_1", email: "noor@example.qa", region_id: "reg_1", shipping_address: { phone: " +974 5111 8021 " } }
const SESSIONS_PATH = "POST /store/payment-collections*"

const collection = (providerId: string, data: Record<string, unknown>) => collectionWith({ id: "payses_1", provider_id: providerId, data })

let store: FakeStore
beforeEach(async () => {
  store = await startFakeStore()
  // The SDK creates the payment collection first when the cart has none.
  store.on("POST /store/payment-collections", { status: 200, body: { payment_collection: { id: "paycol_1" } } })
})
afterEach(() => store.close())

describe("starting a payment", () => {
  it("starts a link checkout and returns PayLater's URL, sending the shopper's contact for the optional look-up", async () => {
    store.on(SESSIONS_PATH, collection("pp_paylater_paylater", { payment_link_url: "https://pay.example/paylink/1?token=a&channel=web" }))
    const { url } = await startLinkCheckout(store.sdk, cart, { mobileNumber: "5111 8021" })
    expect(url).toBe("https://pay.example/paylink/1?token=a&channel=web")
    const call = store.seen.find((s) => s.path === "/store/payment-collections/paycol_1/payment-sessions")!
    expect(call.headers["x-publishable-api-key"]).toBe("pk_test")
    expect(call.body).toEqual({ provider_id: "pp_paylater_paylater", data: { mobile_number: "5111 8021", email: "noor@example.qa" } })
  })

  it("refuses a session without a hosted page URL as no_link", async () => {
    store.on(SESSIONS_PATH, collection("pp_paylater_paylater", { payment_link_url: "javascript:alert(1)" }))
    const error = await startLinkCheckout(store.sdk, cart).catch((e) => e)
    expect(error).toBeInstanceOf(PayLaterCheckoutError)
    expect(error.code).toBe("no_link")
    expect(error.kind).toBe("try_later")
  })

  it("keeps the server's own words for an amount out of range, and gives the Arabic for it", async () => {
    const message = "PayLater can pay for orders between 300.00 and 25000.00 QAR; this order is 110.00 QAR. Please choose another payment method."
    store.on(SESSIONS_PATH, { status: 400, body: { type: "invalid_data", message } })
    const error = await startLinkCheckout(store.sdk, cart).catch((e) => e)
    expect(error).toMatchObject({ code: "amount_out_of_range", kind: "refused", status: 400, message })
    expect(error.messageIn("ar")).toBe(SHOPPER_MESSAGES.amount_out_of_range.ar)
  })

  it("starts a Request to Pay with the typed number and the cart's email, and reads the public session data", async () => {
    store.on(
      SESSIONS_PATH,
      collection("pp_paylater-rtp_paylater", { mobile_number_masked: "974*****021", expires_at: "2030-01-01T00:15:00.000Z", amount: "360.00", paylater_order_id: "payses_1", paylater_expiry_minutes: 15 })
    )
    const { data, session } = await startRequestToPay(store.sdk, cart, { mobileNumber: "5111 8021" })
    expect(session.id).toBe("payses_1")
    expect(data).toEqual({ mobile_number_masked: "974*****021", expires_at: "2030-01-01T00:15:00.000Z", amount: "360.00", paylater_order_id: "payses_1", paylater_expiry_minutes: 15 })
    const call = store.seen.find((s) => s.path.endsWith("/payment-sessions"))!
    expect(call.body.data).toEqual({ mobile_number: "5111 8021", email: "noor@example.qa" })
  })

  it("refuses an empty number before calling the store", async () => {
    const error = await startRequestToPay(store.sdk, cart, { mobileNumber: "  " }).catch((e) => e)
    expect(error.code).toBe("invalid_mobile")
    expect(store.seen).toHaveLength(0)
  })

  it.each([
    [400, SHOPPER_MESSAGES.not_eligible.en, "not_eligible", "refused"],
    [429, SHOPPER_MESSAGES.too_many_requests.en, "too_many_requests", "try_later"],
    [400, "The mobile number must be a Qatar mobile number: 8 digits starting with 3, 5, 6 or 7 (e.g. 3312 3456).", "invalid_mobile", "refused"],
    [400, SHOPPER_MESSAGES.duplicate.en, "duplicate", "refused"],
    [422, SHOPPER_MESSAGES.try_later.en, "try_later", "try_later"],
    [500, SHOPPER_MESSAGES.unconfirmed.en, "unconfirmed", "try_later"],
    [500, "An unknown error occurred.", "unavailable", "try_later"],
    [400, "Something else", "unknown", "refused"],
  ])("sorts a %i %j from the plugin as %s", async (status, message, code, kind) => {
    store.on(SESSIONS_PATH, { status, body: { type: "x", message } })
    const error = await startRequestToPay(store.sdk, cart, { mobileNumber: "5111 8021" }).catch((e) => e)
    expect(error).toMatchObject({ code, kind, status, message })
    expect(error.messageIn("en")).toBe(message)
    expect(error.messageIn("ar")).toMatch(/[\u0600-\u06ff]/)
  })

  it("calls a store that does not answer a network error", async () => {
    store.on(SESSIONS_PATH, "drop")
    const error = await startRequestToPay(store.sdk, cart, { mobileNumber: "5111 8021" }).catch((e) => e)
    expect(error).toMatchObject({ code: "network", kind: "network", status: null })
    expect(toCheckoutError(error)).toBe(error)
  })

  it("takes any 429 (a proxy's too) as too many requests, with the kit's own message", async () => {
    store.on(SESSIONS_PATH, { status: 429, body: { message: "Too Many Requests" } })
    const error = await startRequestToPay(store.sdk, cart, { mobileNumber: "5111 8021" }).catch((e) => e)
    expect(error).toMatchObject({ code: "too_many_requests", kind: "try_later", status: 429, message: SHOPPER_MESSAGES.too_many_requests.en })
    expect(error.messageIn("ar")).toBe(SHOPPER_MESSAGES.too_many_requests.ar)
  })

  it("suggests the shipping address's phone as the PayLater number", () => {
    expect(suggestedMobileNumber(cart)).toBe("+974 5111 8021")
    expect(suggestedMobileNumber({ id: "c", shipping_address: null })).toBe("")
  })
})

describe("polling a Request to Pay", () => {
  const STATE_PATH = RTP_STATE_ROUTE

  it("follows the waiting state to the end, quietly through a failed poll", async () => {
    store.on(
      STATE_PATH,
      waiting(60),
      { status: 500, body: { message: "boom" } },
      { status: 200, body: { status: "processing" } },
      { status: 200, body: { status: "paid", order_id: "order_1" } }
    )
    const states: RequestToPayState[] = []
    const connection: boolean[] = []
    const final = await pollRequestToPay(store.sdk, "payses_1", {
      intervalMs: 5,
      maxBackoffMs: 20,
      onState: (s) => states.push(s),
      onConnection: (ok) => connection.push(ok),
    })
    expect(final).toEqual({ status: "paid", order_id: "order_1" })
    expect(states.map((s) => s.status)).toEqual(["waiting", "processing", "paid"])
    expect(connection).toEqual([false, true])
    expect(store.seen.every((s) => s.headers["x-publishable-api-key"] === "pk_test")).toBe(true)
  })

  it("after 'paid, not placed' while the store retries, keeps asking at the slow interval, and hands over the order a later try placed", async () => {
    const retrying = { status: 200, body: { status: "paid_not_placed", retrying: true } }
    store.on(STATE_PATH, { status: 200, body: { status: "processing" } }, retrying, retrying, { status: 200, body: { status: "paid", order_id: "order_2" } })
    const states: string[] = []
    const started = Date.now()
    const final = await pollRequestToPay(store.sdk, "payses_1", {
      intervalMs: 5,
      notPlacedWatch: { intervalMs: 40, forMs: 60_000 },
      onState: (s) => states.push(s.status),
    })
    expect(final).toEqual({ status: "paid", order_id: "order_2" })
    expect(states).toEqual(["processing", "paid_not_placed", "paid_not_placed", "paid"])
    // Two pauses after "not placed", each the watch's interval, not the 5 ms one.
    expect(Date.now() - started).toBeGreaterThanOrEqual(80)
  })

  it("stops at 'paid, not placed' once the store no longer retries (its money went back), and at once when it never did", async () => {
    store.on(STATE_PATH, { status: 200, body: { status: "paid_not_placed", retrying: true } }, { status: 200, body: { status: "paid_not_placed" } })
    expect(await pollRequestToPay(store.sdk, "payses_1", { intervalMs: 5, notPlacedWatch: { intervalMs: 5, forMs: 60_000 } })).toEqual({ status: "paid_not_placed" })
    expect(store.seen).toHaveLength(2)
    const other = await startFakeStore()
    try {
      other.on(STATE_PATH, { status: 200, body: { status: "paid_not_placed" } })
      expect(await pollRequestToPay(other.sdk, "payses_1", { intervalMs: 5 })).toEqual({ status: "paid_not_placed" })
      expect(other.seen).toHaveLength(1)
    } finally {
      await other.close()
    }
  })

  it("ends the watch with the last 'paid, not placed' when it is over, also while the store answers 'processing' (a try under way)", async () => {
    store.on(STATE_PATH, { status: 200, body: { status: "paid_not_placed", retrying: true } }, { status: 200, body: { status: "processing" } })
    const final = await pollRequestToPay(store.sdk, "payses_1", { intervalMs: 5, notPlacedWatch: { intervalMs: 5, forMs: 40 } })
    expect(final).toEqual({ status: "paid_not_placed", retrying: true })
    expect(store.seen.length).toBeGreaterThanOrEqual(2)
    // The kit's default watch covers the store's try after its refund (16 minutes after the failure),
    // which answers "not retrying": the screen then ends on the final words.
    expect(NOT_PLACED_WATCH.forMs).toBeGreaterThan(16 * 60_000)
  })

  it("answers gone for a replaced session (404)", async () => {
    store.on(STATE_PATH, { status: 404, body: { message: "No PayLater payment session" } })
    expect(await pollRequestToPay(store.sdk, "payses_1", { intervalMs: 5 })).toEqual({ status: "gone" })
  })

  it("stops at once when its signal aborts, even mid-wait", async () => {
    store.on(STATE_PATH, waiting(60))
    const controller = new AbortController()
    const polling = pollRequestToPay(store.sdk, "payses_1", { intervalMs: 60_000, signal: controller.signal })
    while (store.seen.length === 0) await new Promise((r) => setTimeout(r, 5))
    controller.abort()
    expect(await polling).toBeNull()
    expect(store.seen).toHaveLength(1)
  })

  it("backs off from twice the interval up to the maximum after failures", () => {
    expect([0, 1, 2, 3, 4, 5].map((n) => nextDelay(n, 3000, 30000))).toEqual([3000, 6000, 12000, 24000, 30000, 30000])
  })
})

describe("the pending page", () => {
  it("waits until completing the cart gives the order", async () => {
    store.on("POST /store/carts/cart_1/complete", { status: 400, body: { message: "Payment pending" } }, { status: 200, body: { type: "order", order: { id: "order_9" } } })
    store.on("GET /store/carts/cart_1", cartWithLinkSession("cart_1", "pending", {}))
    store.on(RTP_STATE_ROUTE, waiting(300))
    expect(await waitForPendingOrder(store.sdk, "cart_1", { delaysMs: [5] })).toEqual({ kind: "order", orderId: "order_9" })
  })

  it("reports a failed payment with its reason, a missing cart, and gives up after its limit", async () => {
    store.on("POST /store/carts/*", { status: 400, body: { message: "Payment failed" } })
    // The store's answer, not what the session's data says.
    store.on("GET /store/carts/cart_1", cartWithLinkSession("cart_1", "error", { paylater_failure_reason: "declined" }))
    store.on(RTP_STATE_ROUTE, { status: 200, body: { status: "expired" } })
    expect(await waitForPendingOrder(store.sdk, "cart_1", { delaysMs: [5] })).toEqual({ kind: "failed", reason: "expired" })
    expect(await waitForPendingOrder(store.sdk, "cart_2", { delaysMs: [5] })).toEqual({ kind: "missing" })
    store.on("GET /store/carts/cart_3", cartWithLinkSession("cart_3", "pending", {}))
    store.on(RTP_STATE_ROUTE, waiting(300))
    expect(await waitForPendingOrder(store.sdk, "cart_3", { delaysMs: [5], giveUpAfterMs: 30 })).toEqual({ kind: "gave_up" })
  })
})

describe("return parameters", () => {
  it("reads a known failure reason and the cart id, and never trusts other text", () => {
    expect(readPayLaterReturn("?step=payment&paylater_error=declined&cart_id=cart_01ABC")).toEqual({ failure: "declined", cartId: "cart_01ABC" })
    expect(readPayLaterReturn("paylater_error=<script>&cart_id=a%20b")).toEqual({ failure: "unknown", cartId: null })
    expect(readPayLaterReturn(new URLSearchParams("cart_id=cart_1"))).toEqual({ failure: null, cartId: "cart_1" })
    expect(failureMessage("expired", "ar")).toBe(SHOPPER_MESSAGES.expired.ar)
    expect(failureMessage("unknown")).toBe(SHOPPER_MESSAGES.unknown.en)
  })

  it("paid but not placed: says the money comes back unless the store still places the order, never 'declined', and offers no second payment", () => {
    const ret = readPayLaterReturn("?step=payment&paylater_error=paid_not_placed&cart_id=cart_9")
    expect(ret).toEqual({ failure: "paid_not_placed", cartId: "cart_9" })
    expect(paymentWasTaken(ret.failure)).toBe(true)
    expect(paymentWasTaken("declined")).toBe(false)
    expect(failureMessage(ret.failure)).toMatch(/payment was received but the order could not be placed, so the payment is refunded in full.*If the store manages to place the order before that, the order is placed instead and nothing is refunded/)
    expect(failureMessage(ret.failure)).not.toMatch(/declined/i)
    expect(isFinalState({ status: "paid_not_placed" })).toBe(true)
    // The store still retries the completion: a later answer may be "paid" (NOT_PLACED_WATCH).
    expect(isFinalState({ status: "paid_not_placed", retrying: true })).toBe(false)
  })
})

describe("the shopper's choice of PayLater", () => {
  const declinedLink = { payment_collection: { payment_sessions: [{ id: "payses_1", provider_id: "pp_paylater_paylater", status: "error", data: {} }] } }

  it("comes from the URL first, else from the cart's PayLater session, whatever its state", () => {
    expect(payLaterChoice("?step=review&paylater=pp_paylater-rtp_paylater", declinedLink)).toBe("pp_paylater-rtp_paylater")
    // Back on the payment step after PayLater declined: the link stays chosen.
    expect(payLaterChoice(new URLSearchParams("step=payment&paylater_error=declined"), declinedLink)).toBe("pp_paylater_paylater")
    expect(payLaterChoice("paylater=pp_system_default", declinedLink)).toBe("pp_paylater_paylater")
    const manual = { payment_collection: { payment_sessions: [{ id: "payses_2", provider_id: "pp_system_default" }] } }
    expect(payLaterChoice("step=payment", manual)).toBeNull()
    expect(payLaterChoice(null, null)).toBeNull()
  })

  it("names the button the shopper will press, in English and Arabic", () => {
    expect(payLaterButtonText("pp_paylater_paylater")).toBe("Pay with PayLater")
    expect(payLaterButtonText("pp_paylater-rtp_paylater")).toBe("Send the request to my app")
    expect(payLaterButtonText("pp_paylater-rtp_paylater", "ar")).toBe("أرسل الطلب إلى تطبيقي")
    expect(payLaterButtonText("pp_stripe_stripe")).toBeNull()
    expect(payLaterButtonText(null)).toBeNull()
  })
})

describe("instalments", () => {
  const offer = (over: Partial<InstalmentOffer>): InstalmentOffer => ({
    amount: "360.00",
    currency_code: "qar",
    min_amount: "300.00",
    max_amount: "25000.00",
    available: true,
    reason: null,
    plans: [{ count: 4, instalment_amount: "90.00", first_amount: "90.00", interval_days: 30, instalments: [] }],
    ...over,
  })

  it("says the plan, or the range when PayLater cannot pay the amount", () => {
    expect(describeInstalments(offer({}))).toBe("4 payments of 90.00 QAR")
    expect(describeInstalments(offer({}), "ar")).toBe("4 دفعات بقيمة 90.00 ر.ق")
    const uneven = offer({ amount: "300.01", plans: [{ count: 4, instalment_amount: "75.00", first_amount: "75.01", interval_days: 30, instalments: [] }] })
    expect(describeInstalments(uneven)).toBe("4 payments: 75.01 QAR today, then 75.00 QAR")
    expect(describeInstalments(offer({ available: false, reason: "below_minimum", plans: [] }))).toBe("available for orders from 300 QAR")
    expect(describeInstalments(offer({ available: false, reason: "above_maximum", plans: [], max_amount: "4000.50" }))).toBe("available for orders up to 4000.50 QAR")
    expect(describeInstalments(offer({ available: false, reason: "currency", plans: [] }), "ar")).toMatch(/الريال القطري/)
  })

  it("asks the store for an amount or a cart", async () => {
    store.on("GET /store/paylater/instalments", { status: 200, body: offer({}) })
    expect(await fetchInstalments(store.sdk, { amount: 360 })).toEqual(offer({}))
    await fetchInstalments(store.sdk, { cartId: "cart_1" }, { providerId: "pp_paylater-rtp_paylater" })
    expect(store.seen.map((s) => s.query)).toEqual([{ amount: "360" }, { cart_id: "cart_1", provider_id: "pp_paylater-rtp_paylater" }])
  })
})

describe("a cart that is already an order", () => {
  it("turns the store's 409 paylater_order_already_placed into already_placed with the order to show, in English and Arabic", () => {
    const answer = Object.assign(new Error(`${SHOPPER_MESSAGES.already_placed.en} (order_01M87ABC)`), { status: 409 })
    const error = toCheckoutError(answer)
    expect(error).toMatchObject({ code: "already_placed", kind: "already_placed", status: 409, orderId: "order_01M87ABC" })
    expect(error.messageIn("en")).toBe(SHOPPER_MESSAGES.already_placed.en)
    expect(error.messageIn("ar")).toBe(SHOPPER_MESSAGES.already_placed.ar)
  })

  it("never takes an order id from a message that is not the store's sentence", () => {
    const other = Object.assign(new Error("Something failed (order_01EVIL)"), { status: 409 })
    expect(toCheckoutError(other)).toMatchObject({ code: "unknown", orderId: null })
  })
})
