/**
 * Point of sale, in the real admin dashboard (served by `npm run demo`, headless Chromium): staff
 * sign in, open an order with an outstanding amount (created as a draft order and converted), and
 * use the "PayLater Request to Pay" widget: a malformed number is refused, a request is sent and
 * shown waiting, the shopper declines it in the sandbox's shopper app, staff send a new one, the
 * shopper approves, and the widget shows it paid; the order is captured exactly once. A second
 * order's request expires (one-minute requests, real time) and a new one is sent and paid.
 *
 * Screenshots go to test-results/admin/; the README's picture of the widget
 * (docs/images/admin-request-to-pay.png) is written when missing or with UPDATE_DOCS_SCREENSHOTS=1.
 */
import fs from "node:fs"
import path from "node:path"
import type { Browser, Page } from "playwright-core"
import { closeAdminDemo, counterSaleOrder, signInToAdmin, type AdminSession, type Json } from "./admin-session"
import { startDemo, type RunningDemo } from "./demo-process"
import { leftovers } from "./leftovers"
import { answerInShopperApp } from "./storefront"

// The admin is served by Vite's dev middleware: its first page load compiles the dashboard.
jest.setTimeout(420_000)

const SHOTS = path.resolve(__dirname, "..", "..", "test-results", "admin")
const DOCS_SHOT = path.resolve(__dirname, "..", "..", "docs", "images", "admin-request-to-pay.png")
const ADMIN = { email: "pos-staff@paylater-demo.local", password: "pos-staff-password" }
const WIDGET = "#paylater-request-to-pay"

const CAPTURE_FIELDS =
  "fields=payment_status,payment_collections.payments.provider_id,payment_collections.payments.captures.id"
/** [provider, number of captures] for each payment of the order. */
const captures = (order: Json) =>
  order.payment_collections.flatMap((c: Json) => c.payments).map((p: Json) => [p.provider_id, p.captures.length])

describe("admin: Request to Pay from the order page (point of sale)", () => {
  let demo: RunningDemo
  let browser: Browser
  let page: Page
  let adminApi: AdminSession["api"]

  const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true })

  const orderWithOutstandingAmount = () => counterSaleOrder(demo, adminApi)

  const requestState = async (orderId: string) =>
    (await adminApi("GET", `/admin/paylater/orders/${orderId}/request-to-pay`)).request_to_pay

  async function openOrder(orderId: string) {
    await page.goto(`${demo.state.urls.admin}/orders/${orderId}`)
    // The dashboard compiles on first use (Vite dev middleware): allow it time once.
    await page.waitForSelector(WIDGET, { timeout: 240_000 })
  }

  async function sendRequest(mobile: string) {
    await page.fill("#paylater-mobile", mobile)
    await page.click("#paylater-rtp-send")
  }

  const widgetState = (state: string) => page.waitForSelector(`${WIDGET}[data-state="${state}"]`, { timeout: 30_000 })

  async function answerInApp(mobile: string, reference: string, answer: "approve" | "decline") {
    const app = await browser.newPage()
    try {
      await app.goto(`${demo.state.urls.sandbox}/app?mobile=${mobile}`)
      await answerInShopperApp(app, reference, answer)
    } finally {
      await app.close()
    }
  }

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true })
    demo = await startDemo({
      MEDUSA_ADMIN_DISABLED: "false",
      DEMO_ADMIN_EMAIL: ADMIN.email,
      DEMO_ADMIN_PASSWORD: ADMIN.password,
      PAYLATER_RTP_EXPIRY_MINUTES: "1",
    })
    // Staff sign in through the dashboard's own login form: the widget's calls ride its session cookie.
    ;({ browser, page, api: adminApi } = await signInToAdmin(demo, ADMIN))
  })

  // Normally already stopped by the last test; this only cleans up after a failure.
  afterAll(() => closeAdminDemo(demo, browser))

  it("refuses a bad number, sends a request, shows the decline, sends a new one, shows it paid: captured once", async () => {
    const orderId = await orderWithOutstandingAmount()
    await openOrder(orderId)
    expect(await page.getAttribute(WIDGET, "data-state")).toBe("none")
    expect(await page.textContent("#paylater-rtp-outstanding")).toBe("Outstanding: 360.00 QAR")
    expect(await page.textContent("#paylater-rtp-send")).toBe("Send Request to Pay")
    await shot("1-order-outstanding")

    // A number that is not a Qatar mobile: the route's message, and nothing sent to PayLater.
    await sendRequest("1234")
    await page.waitForSelector("#paylater-rtp-error")
    expect(await page.textContent("#paylater-rtp-error")).toMatch(/Qatar mobile number/)
    expect((await requestState(orderId)).request).toBeNull()

    await sendRequest("+974 5111 8021")
    await widgetState("waiting")
    expect(await page.isVisible("#paylater-rtp-error")).toBe(false)
    expect(await page.textContent("#paylater-rtp-message")).toMatch(/^Waiting for 974\*\*\*\*\*021 to approve in the PayLater app \(\d+ min \d+ s left\)\.$/)
    // Never two live requests: no form while one waits.
    expect(await page.isVisible("#paylater-mobile")).toBe(false)
    await shot("2-request-waiting")
    if (process.env.UPDATE_DOCS_SCREENSHOTS === "1" || !fs.existsSync(DOCS_SHOT)) {
      await page.locator(WIDGET).screenshot({ path: DOCS_SHOT })
    }
    const first = (await requestState(orderId)).request

    // The shopper declines on the phone; the widget (polling our route) shows it and offers a new one.
    await answerInApp("97451118021", first.session_id, "decline")
    await widgetState("declined")
    expect(await page.textContent("#paylater-rtp-message")).toBe("The shopper declined the request. You can send a new one.")
    expect(await page.textContent("#paylater-rtp-send")).toBe("Send a new Request to Pay")
    await shot("3-request-declined")

    await sendRequest("5111 8022")
    await widgetState("waiting")
    const second = (await requestState(orderId)).request
    expect(second.session_id).not.toBe(first.session_id)
    expect(second.mobile_number_masked).toBe("974*****022")

    await answerInApp("97451118022", second.session_id, "approve")
    await widgetState("paid")
    await page.locator("#paylater-rtp-outstanding", { hasText: "Outstanding: 0.00 QAR" }).waitFor({ timeout: 30_000 })
    expect(await page.textContent("#paylater-rtp-message")).toBe("Paid 360.00 QAR with PayLater.")
    expect(await page.isVisible("#paylater-mobile")).toBe(false)
    await shot("4-request-paid")

    const { order } = await adminApi("GET", `/admin/orders/${orderId}?${CAPTURE_FIELDS}`)
    expect(order.payment_status).toBe("captured")
    expect(captures(order)).toEqual([["pp_paylater-rtp_paylater", 1]])
  })

  it("shows an expired request and sends a new one", async () => {
    const orderId = await orderWithOutstandingAmount()
    await openOrder(orderId)
    await sendRequest("5111 8023")
    await widgetState("waiting")
    const first = (await requestState(orderId)).request
    expect(Date.parse(first.expires_at) - Date.now()).toBeLessThanOrEqual(60_000)

    // The demo runs with one-minute requests (PAYLATER_RTP_EXPIRY_MINUTES=1): PayLater (the sandbox)
    // and the store both see it run out; the widget, polling, shows it expired and offers a new one.
    await page.waitForSelector(`${WIDGET}[data-state="expired"]`, { timeout: 120_000 })
    expect(await page.textContent("#paylater-rtp-message")).toBe("The request expired. You can send a new one.")
    expect(await page.textContent("#paylater-rtp-send")).toBe("Send a new Request to Pay")
    expect(await page.textContent("#paylater-rtp-outstanding")).toBe("Outstanding: 360.00 QAR")
    await shot("5-request-expired")

    await sendRequest("5111 8023")
    await widgetState("waiting")
    const second = (await requestState(orderId)).request
    expect(second.session_id).not.toBe(first.session_id)
    await answerInApp("97451118023", second.session_id, "approve")
    await widgetState("paid")
    const { order } = await adminApi("GET", `/admin/orders/${orderId}?${CAPTURE_FIELDS}`)
    expect(order.payment_status).toBe("captured")
    expect(captures(order)).toEqual([["pp_paylater-rtp_paylater", 1]])
  })

  it("stops every process it started on Ctrl-C", async () => {
    const groups = [demo.state.demoPid, ...demo.state.processes.map((p) => p.pid)]
    const code = await demo.stop()
    expect(code).toBe(0)
    expect(leftovers(groups, demo.dir)).toEqual([])
  })
})
