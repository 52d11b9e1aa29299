/**
 * The PayLater pages of the real admin dashboard (served by `npm run demo`, headless Chromium), on
 * the demo demo.spec.ts starts once for these and the storefront's journeys.
 *
 * Point of sale: staff sign in, open an order with an outstanding amount (created as a draft order
 * and converted), and use the "PayLater Request to Pay" widget: a malformed number is refused, a
 * request is sent and shown waiting, the shopper declines it in the sandbox's shopper app, staff
 * send a new one, the shopper approves, and the widget shows it paid; the order is captured exactly
 * once. A second order's request expires (one-minute requests, real time) and a new one is sent and
 * paid.
 *
 * Settings → PayLater: a point-of-sale order is paid with Request to Pay, one partial refund goes
 * through, and the next refund's answer is lost (the sandbox pays it out and never answers). The
 * page shows the configuration (nothing secret), tests the connection, counts webhooks, and lists
 * the payment as "Refund outcome unknown"; refunding again is refused meanwhile. Staff record that
 * PayLater did refund it: the row leaves the list, the refund is recorded on the order once, and
 * nothing more is sent to PayLater; the next refund is allowed again. It runs after the Request to
 * Pay journeys: it moves the sandbox's clock forward (refunds open 10 minutes after a payment),
 * which would make PayLater's expiry of a later request disagree with the store's.
 *
 * PayLater (the funnel and finance report page): on the demo's seeded four weeks of history plus
 * the payments above, the page's counts and money equal the definitions computed over the demo's
 * ledger (src/funnel/definitions.ts), for 30 days and again after switching to 7 days; a number
 * opens the attempts behind it; the CSV downloads with the period's payments.
 *
 * Screenshots go to test-results/admin/; the README's pictures (docs/images/admin-request-to-pay.png,
 * docs/images/admin-paylater-settings.png, docs/images/admin-paylater-notification.png,
 * docs/images/admin-paylater-funnel.png) are written when
 * missing or with UPDATE_DOCS_SCREENSHOTS=1.
 */
import fs from "node:fs"
import path from "node:path"
import type { Browser, Page } from "playwright-core"
import { counterSaleOrder, signInToAdmin, type AdminSession, type Json } from "./admin-session"
import type { RunningDemo } from "./demo-process"
import { computeFunnel, type FunnelReport } from "../../src/funnel/definitions"
import { presetPeriod, previousPeriod } from "../../src/funnel/period"
import { qar } from "../../src/admin/routes/paylater/api"
import { readFunnelRows } from "../helpers/funnel-history"
import { answerInShopperApp } from "./storefront"

const SHOTS = path.resolve(__dirname, "..", "..", "test-results", "admin")
const DOCS_SHOT = path.resolve(__dirname, "..", "..", "docs", "images", "admin-request-to-pay.png")
const SETTINGS_DOCS_SHOT = path.resolve(__dirname, "..", "..", "docs", "images", "admin-paylater-settings.png")
const NOTIFICATION_DOCS_SHOT = path.resolve(__dirname, "..", "..", "docs", "images", "admin-paylater-notification.png")
const FUNNEL_DOCS_SHOT = path.resolve(__dirname, "..", "..", "docs", "images", "admin-paylater-funnel.png")
/** The demo's staff user (demo.spec.ts starts the demo with it). */
export const DEMO_ADMIN = { email: "paylater-ops@paylater-demo.local", password: "paylater-ops-password" }
const ADMIN = DEMO_ADMIN
const SECRETS = ["sandbox-secret", "sandbox-webhook-secret"]
const WIDGET = "#paylater-request-to-pay"

const CAPTURE_FIELDS =
  "fields=payment_status,payment_collections.payments.provider_id,payment_collections.payments.captures.id"
/** [provider, number of captures] for each payment of the order. */
const captures = (order: Json) =>
  order.payment_collections.flatMap((c: Json) => c.payments).map((p: Json) => [p.provider_id, p.captures.length])

export function adminJourneys(getDemo: () => RunningDemo): void {
  let demo: RunningDemo
  let browser: Browser
  let page: Page
  let adminApi: AdminSession["api"]
  let rawAdminApi: AdminSession["raw"]

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
    // The dashboard may re-render the widget just after it appears (its order query settling) and
    // drop what was typed, leaving Send disabled: type again until the widget holds the number.
    for (let attempt = 1; ; attempt++) {
      await page.fill("#paylater-mobile", mobile)
      const enabled = await page
        .waitForSelector("#paylater-rtp-send:not([disabled])", { timeout: 5_000 })
        .then(() => true, () => false)
      if (enabled) break
      if (attempt === 3) throw new Error(`Send stayed disabled after typing ${mobile} three times`)
    }
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

  async function sandbox(method: string, route: string, body?: unknown): Promise<Json> {
    const res = await fetch(`${demo.state.urls.sandbox}/__sandbox/${route}`, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!res.ok) throw new Error(`sandbox ${method} ${route}: ${res.status}`)
    return (await res.json()) as Json
  }

  /** A counter sale (350 QAR + 10 QAR delivery) paid with Request to Pay: returns order and payment. */
  async function paidCounterSale(): Promise<{ orderId: string; paymentId: string; reference: string }> {
    const orderId = await counterSaleOrder(demo, adminApi)
    const sent = await adminApi("POST", `/admin/paylater/orders/${orderId}/request-to-pay`, { mobile_number: "5111 8024" })
    const reference = sent.request_to_pay.request.session_id
    await sandbox("POST", `rtp/${reference}/approve`)
    const deadline = Date.now() + 60_000
    for (;;) {
      const { order: paid } = await adminApi("GET", `/admin/orders/${orderId}?fields=payment_status,payment_collections.payments.id`)
      const payment = paid.payment_collections.flatMap((c: Json) => c.payments)[0]
      if (paid.payment_status === "captured" && payment) return { orderId, paymentId: payment.id, reference }
      if (Date.now() > deadline) throw new Error(`order ${orderId} not captured: ${JSON.stringify(paid)}`)
      await new Promise((r) => setTimeout(r, 500))
    }
  }

  const refunds = async (paymentId: string) =>
    (await adminApi("GET", `/admin/payments/${paymentId}?fields=refunds.amount`)).payment.refunds.map((r: Json) => Number(r.amount))

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true })
    demo = getDemo()
    // Staff sign in through the dashboard's own login form: the widget's calls ride its session cookie.
    // Its first page load compiles the dashboard (Vite dev middleware): allow it time once.
    ;({ browser, page, api: adminApi, raw: rawAdminApi } = await signInToAdmin(demo, ADMIN, { width: 1400, height: 1100 }))
  }, 600_000)

  afterAll(async () => {
    await browser?.close()
  })

  describe("Request to Pay from the order page (point of sale)", () => {
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
  })

  describe("Settings → PayLater", () => {
    it("lists a refund whose answer was lost, refuses another refund meanwhile, and resolves it from the page", async () => {
      const { orderId, paymentId, reference } = await paidCounterSale()
      // PayLater accepts refunds from 10 minutes after the payment.
      await sandbox("POST", "clock", { advanceMs: 11 * 60_000 })
      // Right after the capture the order's own booking of it may still be on its way (the settlement
      // writes it after capturing): the refund is then refused with "try again", as staff would be.
      let first = await rawAdminApi("POST", `/admin/payments/${paymentId}/refund`, { amount: 10 })
      for (let i = 0; i < 20 && first.status === 400 && /try again/.test(String(first.json.message)); i++) {
        await new Promise((r) => setTimeout(r, 1500))
        first = await rawAdminApi("POST", `/admin/payments/${paymentId}/refund`, { amount: 10 })
      }
      expect({ status: first.status, message: first.json.message }).toEqual({ status: 200, message: undefined })

      // The next refund is paid out by PayLater, but its answer never arrives.
      await sandbox("POST", "faults", { endpoint: "refund", mode: "timeout", commit: true })
      const lost = await rawAdminApi("POST", `/admin/payments/${paymentId}/refund`, { amount: 100 })
      expect(lost.status).toBeGreaterThanOrEqual(400)
      const refused = await rawAdminApi("POST", `/admin/payments/${paymentId}/refund`, { amount: 20 })
      expect(refused.status).toBe(400)
      expect(refused.json.message).toMatch(/outcome is unknown/)
      expect((await sandbox("GET", `orders/${reference}`)).refunds.map((r: Json) => r.amount)).toEqual(["10.00", "100.00"])
      expect(await refunds(paymentId)).toEqual([10])

      await page.goto(`${demo.state.urls.admin}/settings/paylater`)
      const row = page.locator('[data-testid="paylater-attention-row"]')
      await row.first().waitFor({ timeout: 240_000 })
      expect(await row.count()).toBe(1)
      expect(await row.first().textContent()).toMatch(/Refund outcome unknown.*100\.00 QAR/s)
      expect(await page.textContent('[data-testid="paylater-webhook-url"]')).toBe(demo.state.urls.webhook)
      expect(await page.textContent("body")).toMatch(/sandbox/)
      expect(await page.textContent("body")).toContain(demo.state.urls.sandbox)
      // The webhook that placed the order is counted (written within a second or so of the answer).
      await page.reload()
      await page.locator('[data-testid="paylater-webhook-counts"]', { hasText: /^[1-9]\d* received/ }).waitFor({ timeout: 30_000 })

      await page.click("text=Test connection")
      const result = page.locator('[data-testid="paylater-connection-result"]')
      await result.waitFor({ timeout: 30_000 })
      expect(await result.textContent()).toMatch(/Connected.*issued a token/)
      const html = await page.content()
      for (const secret of SECRETS) expect(html).not.toContain(secret)
      await shot("6-paylater-settings")
      if (process.env.UPDATE_DOCS_SCREENSHOTS === "1" || !fs.existsSync(SETTINGS_DOCS_SHOT)) {
        await page.screenshot({ path: SETTINGS_DOCS_SHOT, fullPage: true })
      }

      // The merchant is told in the admin's notification panel (issue 44): once, by the recovery job's
      // next run (every 30 seconds in this test's demo), in Settings → PayLater's words, nothing secret in it.
      const deadline = Date.now() + 200_000
      let told: Json[] = []
      while (!told.length && Date.now() < deadline) {
        const { notifications } = await adminApi("GET", "/admin/notifications?channel=feed&fields=id,data,created_at&limit=50")
        told = notifications.filter((n: Json) => n.data?.case === "refund_outcome_unknown")
        if (!told.length) await new Promise((r) => setTimeout(r, 5_000))
      }
      expect(told).toHaveLength(1)
      expect(told[0].data.description).toMatch(/^A refund of 100\.00 QAR .* was sent to PayLater without an answer/)
      expect(JSON.stringify(told[0])).not.toContain(reference)
      await page.reload()
      await page.locator('[data-testid="paylater-attention-row"]').first().waitFor({ timeout: 60_000 })
      // The dashboard's own shortcut opens its notification drawer (the bell in the top bar).
      await page.keyboard.press("Control+n")
      const drawer = page.locator('[role="dialog"]')
      await drawer.locator("text=Refund outcome unknown").waitFor({ timeout: 30_000 })
      for (const secret of SECRETS) expect(await drawer.textContent()).not.toContain(secret)
      await shot("6b-paylater-notification")
      if (process.env.UPDATE_DOCS_SCREENSHOTS === "1" || !fs.existsSync(NOTIFICATION_DOCS_SHOT)) {
        await page.screenshot({ path: NOTIFICATION_DOCS_SHOT })
      }
      await page.keyboard.press("Escape")

      // The order link leads to the order.
      expect(await row.first().locator("a", { hasText: "Open order" }).getAttribute("href")).toBe(`/app/orders/${orderId}`)

      // Staff checked PayLater's portal: the refund was paid out.
      await row.first().locator("button", { hasText: "PayLater refunded it" }).click()
      await page.locator('[role="alertdialog"] button', { hasText: "Confirm" }).click()
      await page.locator("text=Nothing needs attention.").waitFor({ timeout: 30_000 })
      await shot("7-paylater-settings-resolved")

      // Recorded on the order once; nothing more sent to PayLater; the next refund is allowed.
      expect(await refunds(paymentId)).toEqual(expect.arrayContaining([10, 100]))
      expect((await refunds(paymentId)).length).toBe(2)
      expect((await sandbox("GET", `orders/${reference}`)).refunds).toHaveLength(2)
      expect((await rawAdminApi("POST", `/admin/payments/${paymentId}/refund`, { amount: 20 })).status).toBe(200)
      expect((await sandbox("GET", `orders/${reference}`)).refunds.map((r: Json) => r.amount)).toEqual(["10.00", "100.00", "20.00"])
    })
  })

  describe("PayLater: the funnel and the finance report", () => {
    /** The definitions over the demo's whole ledger, now: what the page must show. */
    async function truth(preset: "30d" | "7d"): Promise<FunnelReport> {
      const knex = require("knex")({ client: "pg", connection: demo.state.databaseUrl, pool: { min: 0, max: 1 } })
      try {
        const now = new Date()
        const period = presetPeriod(preset, now, "Asia/Qatar")
        return computeFunnel({ ...(await readFunnelRows(knex)), period, previous: previousPeriod(period), now })
      } finally {
        await knex.destroy()
      }
    }
    const text = async (testId: string) => ((await page.textContent(`[data-testid="${testId}"]`)) ?? "").trim()

    async function expectPageShows(expected: FunnelReport, basis: "checkouts" | "attempts") {
      for (const m of ["link", "request_to_pay", "point_of_sale", "total"] as const) {
        for (const k of ["started", "paid", "placed", "paid_without_order", "declined", "expired", "abandoned", "open"] as const) {
          expect([m, k, await text(`funnel-${basis}-${m}-${k}`)]).toEqual([m, k, String(expected.methods[m][basis][k])])
        }
        expect(await text(`money-${m}-paid`)).toBe(qar(expected.methods[m].money.paid))
        expect(await text(`money-${m}-net`)).toBe(qar(expected.methods[m].money.net))
        expect(await text(`money-${m}-payments`)).toBe(String(expected.methods[m].money.payments))
      }
    }

    it("shows the seeded history's numbers, switches the period, opens the attempts behind a number, downloads the CSV", async () => {
      await page.goto(`${demo.state.urls.admin}/paylater`)
      // A new route: the dashboard may compile it on first use.
      await page.waitForSelector('[data-testid="paylater-funnel-table"]', { timeout: 240_000 })
      const month = await truth("30d")
      // The demo's four weeks of history are there (not a vacuous comparison).
      expect(month.methods.total.checkouts.started).toBeGreaterThan(300)
      expect(month.methods.total.refunds.count).toBeGreaterThan(0)
      await expectPageShows(month, "checkouts")
      expect(await page.locator('[data-testid="paylater-daily-chart"] rect').count()).toBe(30)
      await shot("8-paylater-funnel")
      if (process.env.UPDATE_DOCS_SCREENSHOTS === "1" || !fs.existsSync(FUNNEL_DOCS_SHOT)) {
        await page.screenshot({ path: FUNNEL_DOCS_SHOT, fullPage: true })
      }

      await page.click('[data-testid="period-7d"]')
      const week = await truth("7d")
      await page.locator('[data-testid="paylater-period"]', { hasText: `${presetPeriod("7d", new Date(), "Asia/Qatar").from_date} to` }).waitFor({ timeout: 30_000 })
      await page.locator('[data-testid="paylater-daily-chart"] rect').nth(6).waitFor({ timeout: 30_000 })
      expect(await page.locator('[data-testid="paylater-daily-chart"] rect').count()).toBe(7)
      await expectPageShows(week, "checkouts")
      await page.click('[data-testid="basis-attempts"]')
      await expectPageShows(week, "attempts")

      // A number opens the attempts behind it.
      const declined = week.methods.total.attempts.declined
      await page.click('[data-testid="funnel-attempts-total-declined"]')
      const list = page.locator('[data-testid="paylater-attempts-list"]')
      await list.waitFor({ timeout: 30_000 })
      await list.locator("tbody tr").nth(Math.min(declined, 25) - 1).waitFor({ timeout: 30_000 })
      expect(await list.locator("tbody tr").count()).toBe(Math.min(declined, 25))
      expect(await list.locator("tbody").textContent()).toMatch(/declined/)

      // The finance report's CSV: the week's payments, with the byte order mark Excel needs.
      const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-testid="paylater-csv-download"]')])
      const file = path.join(SHOTS, "paylater-payments.csv")
      await download.saveAs(file)
      const bytes = fs.readFileSync(file)
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
      const lines = bytes.toString("utf8").split("\r\n").filter(Boolean)
      expect(lines[0]).toBe("\uFEFFpaylater_order_id,paylater_reference,medusa_order,method,paid_at,amount,refunded,net,status,currency,mobile")
      expect(lines).toHaveLength(week.methods.total.money.payments + 1)
      expect(await page.locator('[data-testid="paylater-payment-row"]').count()).toBe(Math.min(20, week.methods.total.money.payments))
    })
  })
}
