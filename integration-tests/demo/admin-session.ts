/**
 * What the admin browser tests share: staff signed in to the demo's dashboard (through its own
 * login form, so the pages' calls ride its session cookie), a bearer token for the admin API, and a
 * counter sale (a draft order converted to an order with an outstanding amount).
 */
import fs from "node:fs"
import { chromium, type Browser, type Page } from "playwright-core"
import type { RunningDemo } from "./demo-process"

const { launchOptions } = require("../../scripts/lib/chromium") as {
  launchOptions(): { executablePath: string; args: string[] }
}

export type Json = Record<string, any>

export interface AdminSession {
  browser: Browser
  page: Page
  /** Admin API call with the bearer token; throws with the answer on any non-2xx. */
  api(method: string, pathname: string, body?: unknown): Promise<Json>
  /** Same, answering the status and body whatever they are. */
  raw(method: string, pathname: string, body?: unknown): Promise<{ status: number; json: Json }>
}

export async function signInToAdmin(
  demo: RunningDemo,
  admin: { email: string; password: string },
  viewport = { width: 1400, height: 1000 }
): Promise<AdminSession> {
  const browser = await chromium.launch(launchOptions())
  const login = await fetch(`${demo.state.urls.backend}/auth/user/emailpass`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(admin),
  })
  const token = ((await login.json()) as { token: string }).token
  if (!token) throw new Error(`admin login failed (${login.status})`)

  const page = await browser.newPage({ viewport })
  await signInThroughForm(page, `${demo.state.urls.admin}/login`, admin)

  const raw = async (method: string, pathname: string, body?: unknown) => {
    const res = await fetch(`${demo.state.urls.backend}${pathname}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: res.status, json: (await res.json().catch(() => ({}))) as Json }
  }
  const api = async (method: string, pathname: string, body?: unknown) => {
    const res = await raw(method, pathname, body)
    if (res.status >= 300) throw new Error(`${method} ${pathname}: ${res.status} ${JSON.stringify(res.json)}`)
    return res.json
  }
  return { browser, page, api, raw }
}

/** What a counter sale looks like: a draft order for one 350 QAR perfume + 10 QAR delivery, converted. */
export async function counterSaleOrder(demo: RunningDemo, api: AdminSession["api"]): Promise<string> {
  const { products } = await api("GET", "/admin/products?fields=id,variants.id,variants.title&limit=50")
  const variant = products.flatMap((p: Json) => p.variants).find((v: Json) => /standard/i.test(v.title))
  const { shipping_options } = await api("GET", "/admin/shipping-options?fields=id,name&limit=50")
  const { sales_channels } = await api("GET", "/admin/sales-channels?fields=id&limit=1")
  const address = { first_name: "Noor", last_name: "Al-Kuwari", address_1: "Zone 66", city: "Doha", country_code: "qa" }
  const { draft_order } = await api("POST", "/admin/draft-orders", {
    region_id: demo.state.regionId,
    sales_channel_id: sales_channels[0].id,
    email: "counter-shopper@example.qa",
    items: [{ variant_id: variant.id, quantity: 1 }],
    shipping_address: address,
    billing_address: address,
    shipping_methods: [{ name: "Doha delivery", shipping_option_id: shipping_options[0].id, amount: 10 }],
  })
  const { order } = await api("POST", `/admin/draft-orders/${draft_order.id}/convert-to-order`, {})
  return order.id
}

/** Closes the browser and, unless a test already did, stops the demo and removes its directory. */
export async function closeAdminDemo(demo: RunningDemo | undefined, browser: Browser | undefined): Promise<void> {
  await browser?.close()
  if (demo) {
    await demo.stop()
    fs.rmSync(demo.dir, { recursive: true, force: true })
  }
}

/**
 * The dashboard's own login form, submitted until the dashboard leaves it. Two things on the demo's
 * first visit make one submit not enough on a loaded CI: the URL changes only once the next page's
 * modules are loaded, which Vite compiles now (over 120 s seen); and Vite, finding a dependency it
 * had not optimized, reloads the page, which lands on the login form again with the submit lost.
 * Signing in again is harmless; a wrong password still fails, at the deadline.
 */
async function signInThroughForm(page: Page, loginUrl: string, admin: { email: string; password: string }): Promise<void> {
  const deadline = Date.now() + 360_000
  for (;;) {
    if (new URL(page.url()).pathname !== new URL(loginUrl).pathname) {
      await page.goto(loginUrl, { timeout: 240_000 })
    }
    await page.fill('input[name="email"]', admin.email, { timeout: 240_000 })
    await page.fill('input[name="password"]', admin.password)
    await page.click('button[type="submit"]')
    try {
      await page.waitForURL((url) => !url.pathname.endsWith("/login"), { timeout: Math.min(90_000, Math.max(1, deadline - Date.now())) })
      return
    } catch (error) {
      if (Date.now() >= deadline) throw error
      console.warn(`admin sign-in: still on ${page.url()} after submitting; submitting again`)
    }
  }
}
