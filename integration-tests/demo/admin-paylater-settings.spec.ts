/**
 * Settings → PayLater in the real admin dashboard (served by `npm run demo`, headless Chromium):
 * a point-of-sale order is paid with Request to Pay, one partial refund goes through, and the next
 * refund's answer is lost (the sandbox pays it out and never answers). The page shows the
 * configuration (nothing secret), tests the connection, counts webhooks, and lists the payment as
 * "Refund outcome unknown"; refunding again is refused meanwhile. Staff record that PayLater did
 * refund it: the row leaves the list, the refund is recorded on the order once, and nothing more is
 * sent to PayLater; the next refund is allowed again.
 *
 * Screenshots go to test-results/admin/; docs/images/admin-paylater-settings.png is written when
 * missing or with UPDATE_DOCS_SCREENSHOTS=1.
 */
import fs from "node:fs"
import path from "node:path"
import type { Browser, Page } from "playwright-core"
import { closeAdminDemo, counterSaleOrder, signInToAdmin, type AdminSession, type Json } from "./admin-session"
import { startDemo, type RunningDemo } from "./demo-process"

// The admin is served by Vite's dev middleware: its first page load compiles the dashboard.
jest.setTimeout(420_000)

const SHOTS = path.resolve(__dirname, "..", "..", "test-results", "admin")
const DOCS_SHOT = path.resolve(__dirname, "..", "..", "docs", "images", "admin-paylater-settings.png")
const ADMIN = { email: "paylater-ops@paylater-demo.local", password: "paylater-ops-password" }
const SECRETS = ["sandbox-secret", "sandbox-webhook-secret"]

describe("admin: Settings → PayLater", () => {
  let demo: RunningDemo
  let browser: Browser
  let page: Page
  let ok: AdminSession["api"]
  let adminApi: AdminSession["raw"]

  const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true })

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
    const orderId = await counterSaleOrder(demo, ok)
    const sent = await ok("POST", `/admin/paylater/orders/${orderId}/request-to-pay`, { mobile_number: "5111 8024" })
    const reference = sent.request_to_pay.request.session_id
    await sandbox("POST", `rtp/${reference}/approve`)
    const deadline = Date.now() + 60_000
    for (;;) {
      const { order: paid } = await ok("GET", `/admin/orders/${orderId}?fields=payment_status,payment_collections.payments.id`)
      const payment = paid.payment_collections.flatMap((c: Json) => c.payments)[0]
      if (paid.payment_status === "captured" && payment) return { orderId, paymentId: payment.id, reference }
      if (Date.now() > deadline) throw new Error(`order ${orderId} not captured: ${JSON.stringify(paid)}`)
      await new Promise((r) => setTimeout(r, 500))
    }
  }

  const refunds = async (paymentId: string) =>
    (await ok("GET", `/admin/payments/${paymentId}?fields=refunds.amount`)).payment.refunds.map((r: Json) => Number(r.amount))

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true })
    demo = await startDemo({
      MEDUSA_ADMIN_DISABLED: "false",
      DEMO_ADMIN_EMAIL: ADMIN.email,
      DEMO_ADMIN_PASSWORD: ADMIN.password,
      PAYLATER_TIMEOUT_MS: "2000",
    })
    ;({ browser, page, api: ok, raw: adminApi } = await signInToAdmin(demo, ADMIN, { width: 1400, height: 1100 }))
  })

  afterAll(() => closeAdminDemo(demo, browser))

  it("lists a refund whose answer was lost, refuses another refund meanwhile, and resolves it from the page", async () => {
    const { orderId, paymentId, reference } = await paidCounterSale()
    // PayLater accepts refunds from 10 minutes after the payment.
    await sandbox("POST", "clock", { advanceMs: 11 * 60_000 })
    expect((await adminApi("POST", `/admin/payments/${paymentId}/refund`, { amount: 10 })).status).toBe(200)

    // The next refund is paid out by PayLater, but its answer never arrives.
    await sandbox("POST", "faults", { endpoint: "refund", mode: "timeout", commit: true })
    const lost = await adminApi("POST", `/admin/payments/${paymentId}/refund`, { amount: 100 })
    expect(lost.status).toBeGreaterThanOrEqual(400)
    const refused = await adminApi("POST", `/admin/payments/${paymentId}/refund`, { amount: 20 })
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
    if (process.env.UPDATE_DOCS_SCREENSHOTS === "1" || !fs.existsSync(DOCS_SHOT)) {
      await page.screenshot({ path: DOCS_SHOT, fullPage: true })
    }

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
    expect((await adminApi("POST", `/admin/payments/${paymentId}/refund`, { amount: 20 })).status).toBe(200)
    expect((await sandbox("GET", `orders/${reference}`)).refunds.map((r: Json) => r.amount)).toEqual(["10.00", "100.00", "20.00"])
  })
})
