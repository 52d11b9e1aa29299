import path from "node:path"
import { build } from "esbuild"
import { chromium, type Browser, type Page } from "playwright-core"
import { payLaterButtonText } from "../choice"
import { SHOPPER_MESSAGES } from "../messages"
import { cartWithLinkSession, collectionWith, RTP_STATE_ROUTE, startFakeStore, waiting, type FakeStore } from "./fake-store"

/*
 * The React components in real headless Chromium (Debian's, as every browser test here), bundled
 * with esbuild and React from devDependencies, talking to a fake Medusa store through the real JS
 * SDK. No skip when Chromium is missing: a silently skipped browser test proves nothing.
 */

jest.setTimeout(60_000)

const { launchOptions } = require("../../../scripts/lib/chromium") as {
  launchOptions(): { executablePath: string; args: string[] }
}

let bundle: string
let browser: Browser
let store: FakeStore
let page: Page
let onPageError: (e: Error) => void

beforeAll(async () => {
  const options = launchOptions()
  const result = await build({
    entryPoints: [path.join(__dirname, "browser", "harness.tsx")],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2020",
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"development"' },
    logLevel: "warning",
  })
  bundle = result.outputFiles[0].text
  browser = await chromium.launch(options)
  // One page for the file, loaded afresh from each test's own fake store (a new port, so a new
  // origin: nothing in storage carries over); a page per test was most of this suite's CPU.
  page = await browser.newPage()
})

afterAll(async () => {
  await browser?.close()
})

beforeEach(async () => {
  store = await startFakeStore()
  store.on("GET /", { status: 200, contentType: "text/html; charset=utf-8", raw: '<!doctype html><meta charset="utf-8"><div id="root"></div><script type="module" src="/app.js"></script>' })
  store.on("GET /app.js", { status: 200, contentType: "text/javascript; charset=utf-8", raw: bundle })
  store.on("POST /store/payment-collections", { status: 200, body: { payment_collection: { id: "paycol_1" } } })
  const problems: string[] = []
  onPageError = (e) => problems.push(e.message)
  page.on("pageerror", onPageError)
  await page.goto(store.url)
  await page.waitForFunction(() => typeof window.__mount === "function")
  expect(problems).toEqual([])
})

afterEach(async () => {
  page.off("pageerror", onPageError)
  // Off the test's store before it closes: nothing of this test runs on in the next one's page.
  await page.goto("about:blank")
  await store.close()
})

const mount = (name: string, props: Record<string, unknown> = {}) =>
  page.evaluate(([n, p]) => window.__mount(n, p), [name, props] as const)
const events = () => page.evaluate(() => window.__events)
const offer = (over: Record<string, unknown> = {}) => ({
  amount: "360.00",
  currency_code: "qar",
  min_amount: "300.00",
  max_amount: "25000.00",
  available: true,
  reason: null,
  plans: [{ count: 4, instalment_amount: "90.00", first_amount: "90.00", interval_days: 30, instalments: [1, 2, 3, 4].map((n) => ({ number: n, amount: "90.00", due_after_days: (n - 1) * 30 })) }],
  ...over,
})
const cart = { id: "cart_1", email: "noor@example.qa", shipping_address: { phone: "+974 5111 8021" } }

describe("PayLaterInstalments", () => {
  it("says the plan for an amount, with the storefront's classes next to its own", async () => {
    store.on("GET /store/paylater/instalments", { status: 200, body: offer() })
    await mount("instalments", { amount: "360" })
    const text = page.locator(".paylater-instalments-text")
    await text.waitFor()
    expect(await text.textContent()).toBe("PayLater 4 payments of 90.00 QAR")
    expect(await page.getAttribute(".paylater-instalments", "class")).toBe("paylater-instalments text-sm")
    expect(store.seen.find((s) => s.path === "/store/paylater/instalments")?.query).toEqual({ amount: "360" })
  })

  it("says the outlet's minimum for a small amount, in Arabic right to left", async () => {
    store.on("GET /store/paylater/instalments", { status: 200, body: offer({ amount: "100.00", available: false, reason: "below_minimum", plans: [] }) })
    await mount("instalments", { amount: "100", locale: "ar" })
    await page.locator(".paylater-instalments").waitFor()
    expect(await page.getAttribute(".paylater-instalments", "dir")).toBe("rtl")
    expect(await page.getAttribute(".paylater-instalments", "data-available")).toBe("false")
    expect(await page.textContent(".paylater-instalments-text")).toBe("PayLater متاح للطلبات من 300 ر.ق")
  })
})

describe("PayLaterButton", () => {
  it("creates the session and hands PayLater's URL to navigate", async () => {
    store.on("POST /store/payment-collections/*", collectionWith({ id: "payses_1", provider_id: "pp_paylater_paylater", data: { payment_link_url: "https://pay.example/paylink/1?token=t" } }, 150))
    await mount("button", { cart })
    await page.click("#pay")
    await page.locator('#pay[aria-busy="true"]').waitFor()
    expect(await page.textContent("#pay")).toBe("Taking you to PayLater…")
    await page.waitForFunction(() => window.__events.length > 0)
    expect(await events()).toEqual([["navigate", "https://pay.example/paylink/1?token=t"]])
  })

  it("by default replaces the checkout in the history with PayLater's page (Back after paying never returns to it)", async () => {
    const paylaterPage = `${store.url}/paylater-page?token=t`
    store.on("GET /paylater-page", { status: 200, contentType: "text/html; charset=utf-8", raw: "<!doctype html><title>PayLater</title>" })
    store.on("POST /store/payment-collections/*", collectionWith({ id: "payses_1", provider_id: "pp_paylater_paylater", data: { payment_link_url: paylaterPage } }))
    await mount("button-default-navigation", { cart })
    const entriesBefore = await page.evaluate(() => history.length)
    await Promise.all([page.waitForURL(paylaterPage), page.click("#pay")])
    expect(await page.evaluate(() => history.length)).toBe(entriesBefore)
  })

  it("shows the provider's refusal and lets the shopper try again", async () => {
    const message = "PayLater can pay for orders between 300.00 and 25000.00 QAR; this order is 110.00 QAR. Please choose another payment method."
    store.on("POST /store/payment-collections/*", { status: 400, body: { type: "invalid_data", message } })
    await mount("button", { cart })
    await page.click("#pay")
    const alert = page.locator(".paylater-error[role=alert]")
    await alert.waitFor()
    expect(await alert.textContent()).toBe(message)
    expect(await alert.getAttribute("data-code")).toBe("amount_out_of_range")
    expect(await page.isEnabled("#pay")).toBe(true)
    expect(await events()).toEqual([["error", "amount_out_of_range"]])
  })
})

describe("a cart the webhook already placed (issue 34)", () => {
  const alreadyPlaced = { status: 409, body: { type: "not_allowed", code: "paylater_order_already_placed", message: `${SHOPPER_MESSAGES.already_placed.en} (order_01PLACED)`, order_id: "order_01PLACED" } }

  it("Pay with PayLater: forgets the cart, then goes to the starter's confirmation route; never to PayLater", async () => {
    store.on("POST /store/payment-collections/*", alreadyPlaced)
    await mount("button-placed", { cart })
    await page.click("#pay")
    await page.waitForFunction(() => window.__events.some(([name]) => name === "navigate"))
    expect(await events()).toEqual([
      ["forgetCart", true],
      ["navigate", "/qa/order/order_01PLACED/confirmed"],
    ])
    expect(await page.textContent(".paylater-error[role=alert]")).toBe(SHOPPER_MESSAGES.already_placed.en)
    // Still busy while the page changes: no second start.
    expect(await page.isEnabled("#pay")).toBe(false)
  })

  it("Request to Pay: the same, nothing pushed", async () => {
    store.on("POST /store/payment-collections/*", alreadyPlaced)
    await mount("rtp-form-placed", { cart: { ...cart, shipping_address: { phone: "+974 5111 8021" } } })
    await page.click("#rtp-send")
    await page.waitForFunction(() => window.__events.some(([name]) => name === "navigate"))
    expect(await events()).toEqual([
      ["forgetCart", true],
      ["navigate", "/qa/order/order_01PLACED/confirmed"],
    ])
  })
})

describe("RequestToPayForm", () => {
  it("is prefilled from the shipping phone and starts the request with it (Enter sends)", async () => {
    store.on("POST /store/payment-collections/*", collectionWith({ id: "payses_7", provider_id: "pp_paylater-rtp_paylater", data: { mobile_number_masked: "974*****021", amount: "360.00" } }))
    await mount("rtp-form", { cart })
    expect(await page.inputValue("#rtp-mobile")).toBe("+974 5111 8021")
    await page.press("#rtp-mobile", "Enter")
    await page.waitForFunction(() => window.__events.length > 0)
    expect(await events()).toEqual([
      ["started", { id: "payses_7", mobile: "+974 5111 8021", data: { mobile_number_masked: "974*****021", amount: "360.00" } }],
    ])
    const sent = store.seen.find((s) => s.path.endsWith("/payment-sessions"))
    expect(sent?.body.data).toEqual({ mobile_number: "+974 5111 8021", email: "noor@example.qa" })
  })

  it("shows 'PayLater cannot take this payment' at once, in Arabic, marking the field", async () => {
    store.on("POST /store/payment-collections/*", { status: 400, body: { type: "not_allowed", message: SHOPPER_MESSAGES.not_eligible.en } })
    await mount("rtp-form", { cart, locale: "ar" })
    await page.click("#rtp-send")
    await page.locator('#rtp-error[data-kind="refused"]').waitFor()
    expect(await page.textContent("#rtp-error")).toBe(SHOPPER_MESSAGES.not_eligible.ar)
    expect(await page.getAttribute("#rtp-mobile", "aria-invalid")).toBe("true")
    expect(await page.isEnabled("#rtp-send")).toBe(true)
  })

  for (const locale of ["en", "ar"] as const) {
    it(`puts the number's hint under the field, before the Send button (${locale})`, async () => {
      await mount("rtp-form", { cart, locale })
      const [field, hint, send] = await Promise.all(["#rtp-mobile", "#rtp-hint", "#rtp-send"].map((s) => page.locator(s).boundingBox()))
      expect(hint!.y).toBeGreaterThanOrEqual(field!.y + field!.height)
      expect(send!.y).toBeGreaterThanOrEqual(hint!.y + hint!.height)
      expect(await page.textContent("#rtp-hint")).toBe(locale === "en" ? "Your Qatar mobile number, e.g. 5111 8021 or +974 5111 8021." : "رقم جوالك القطري، مثل 5111 8021 أو ‎+974 5111 8021.")
      expect((await page.getAttribute("#rtp-mobile", "aria-describedby"))?.split(" ")).toContain("rtp-hint")
    })
  }

  it("asks for a number before calling the store", async () => {
    await mount("rtp-form", { cart: { id: "cart_1" } })
    await page.click("#rtp-send")
    await page.locator("#rtp-error:not([hidden])").waitFor()
    expect(await page.textContent("#rtp-error")).toMatch(/Enter the mobile number of your PayLater account/)
    expect(store.seen.filter((s) => s.path.startsWith("/store/"))).toHaveLength(0)
  })
})

describe("RequestToPayWaiting", () => {
  const STATE = RTP_STATE_ROUTE

  it("counts down with the masked number, tells of a lost connection, and hands over the order once paid", async () => {
    store.on(
      STATE,
      waiting(125),
      { status: 503, body: { message: "down" } },
      waiting(120),
      { status: 200, body: { status: "paid", order_id: "order_1" } }
    )
    await mount("rtp-waiting")
    await page.locator(".paylater-rtp-countdown").filter({ hasText: /^2:0\d$/ }).waitFor()
    expect(await page.textContent(".paylater-rtp-masked")).toBe("974*****021")
    expect(await page.textContent(".paylater-rtp-lead")).toBe("We sent a payment request for 360.00 QAR to the PayLater app on 974*****021.")
    await page.waitForFunction(() => window.__events.some(([name]) => name === "paid"))
    expect(await events()).toEqual([["paid", "order_1"]])
  })

  it("shows a decline with a retry, and stops polling", async () => {
    store.on(STATE, waiting(60), { status: 200, body: { status: "declined" } })
    await mount("rtp-waiting")
    await page.locator('.paylater-rtp-waiting[data-state="declined"]').waitFor()
    // The heading says what happened; "approve" is over.
    expect(await page.textContent(".paylater-rtp-title")).toBe("The request was declined")
    expect(await page.textContent(".paylater-rtp-outcome [role=alert]")).toBe(SHOPPER_MESSAGES.rtp_declined.en)
    expect(await page.isVisible(".paylater-rtp-countdown")).toBe(false)
    const polls = store.seen.length
    // A real button with the storefront's button classes, reachable from the keyboard.
    const retry = page.getByRole("button", { name: "Send a new request" })
    expect(await retry.getAttribute("class")).toBe("paylater-rtp-retry store-button")
    expect(await retry.getAttribute("type")).toBe("button")
    await retry.focus()
    await page.keyboard.press("Enter")
    expect(await events()).toEqual([["retry", true]])
    await page.waitForTimeout(200)
    expect(store.seen.length).toBe(polls)
  })

  it("shows an expiry in Arabic", async () => {
    store.on(STATE, { status: 200, body: { status: "expired" } })
    await mount("rtp-waiting", { locale: "ar" })
    await page.locator('.paylater-rtp-waiting[data-state="expired"]').waitFor()
    expect(await page.textContent(".paylater-rtp-title")).toBe("انتهت صلاحية الطلب")
    expect(await page.textContent(".paylater-rtp-outcome [role=alert]")).toBe(SHOPPER_MESSAGES.rtp_expired.ar)
    expect(await page.getByRole("button", { name: "أرسل طلبًا جديدًا" }).isVisible()).toBe(true)
    expect(await page.getAttribute(".paylater-rtp-waiting", "dir")).toBe("rtl")
  })

  it("shows a notice while the store cannot be reached", async () => {
    store.on(STATE, waiting(60), { status: 503, body: {} })
    await mount("rtp-waiting")
    await page.locator(".paylater-notice[data-kind=connection]").waitFor()
    expect(await page.textContent(".paylater-notice")).toBe(SHOPPER_MESSAGES.rtp_connection.en)
  })
})

describe("the guide's checkout around the components", () => {
  for (const [choice, locale, button] of [
    ["pp_paylater_paylater", "en", "#pay"],
    ["pp_paylater-rtp_paylater", "en", "#rtp-send"],
    ["pp_paylater_paylater", "ar", "#pay"],
    ["pp_paylater-rtp_paylater", "ar", "#rtp-send"],
  ] as const) {
    it(`the review sentence names the button under it (${choice}, ${locale})`, async () => {
      await mount("review", { choice, locale })
      const pressed = await page.textContent(button)
      expect(pressed).toBe(payLaterButtonText(choice, locale))
      expect(await page.textContent("#review-text")).toBe(`By clicking the ${pressed} button, you accept our terms.`)
    })
  }

  it("back on the payment step after PayLater declined, PayLater is still chosen and Continue is enabled", async () => {
    store.on("GET /store/carts/cart_1", cartWithLinkSession("cart_1", "error", { paylater_failure_reason: "declined" }))
    await mount("payment-step", { search: "?step=payment&paylater_error=declined" })
    await page.locator("#payment-step").waitFor()
    expect(await page.isChecked('input[value="pp_paylater_paylater"]')).toBe(true)
    expect(await page.isEnabled("#continue")).toBe(true)
  })

  it("a cart without PayLater opens with nothing chosen", async () => {
    store.on("GET /store/carts/cart_1", { status: 200, body: { cart: { id: "cart_1", payment_collection: null } } })
    await mount("payment-step", { search: "?step=payment" })
    await page.locator("#payment-step").waitFor()
    expect(await page.locator("input:checked").count()).toBe(0)
    expect(await page.isEnabled("#continue")).toBe(false)
  })
})

describe("PayLaterPendingNotice", () => {
  it("waits, then hands over the order", async () => {
    store.on("POST /store/carts/cart_1/complete", { status: 400, body: { message: "not yet" } }, { status: 200, body: { type: "order", order: { id: "order_5" } } })
    store.on("GET /store/carts/cart_1", cartWithLinkSession("cart_1", "pending", {}))
    store.on(RTP_STATE_ROUTE, waiting(300))
    await mount("pending")
    expect(await page.textContent(".paylater-pending-status")).toBe(SHOPPER_MESSAGES.pending.en)
    await page.waitForFunction(() => window.__events.length > 0, undefined, { timeout: 10_000 })
    expect(await events()).toEqual([["order", "order_5"]])
  })

  it("hands over a failed payment's reason", async () => {
    store.on("POST /store/carts/cart_1/complete", { status: 400, body: { message: "failed" } })
    store.on("GET /store/carts/cart_1", cartWithLinkSession("cart_1", "error", {}))
    store.on(RTP_STATE_ROUTE, { status: 200, body: { status: "declined" } })
    await mount("pending")
    await page.waitForFunction(() => window.__events.length > 0)
    expect(await events()).toEqual([["failed", "declined"]])
  })
})
