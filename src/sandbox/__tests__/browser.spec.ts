import fs from "node:fs"
import http from "node:http"
import type { AddressInfo, Socket } from "node:net"
import path from "node:path"
import { chromium, type Browser } from "playwright-core"
import { verifyWebhook } from "../../lib/paylater/webhook"
import { harness, linkBody, rtpBody, type Harness } from "./helpers"

/*
 * A real headless Chromium walks the hosted page and the shopper app. There is deliberately no
 * skip when Chromium is missing: CI installs it, and a silently skipped browser test proves nothing.
 */

jest.setTimeout(60_000)

// Shared with the demo's browser tests: where Debian's Chromium is and the flags it runs with here.
const { launchOptions } = require("../../../scripts/lib/chromium") as {
  launchOptions(): { executablePath: string; args: string[] }
}
const RESULTS = path.resolve(__dirname, "../../../test-results")
const SECRET = "sandbox-webhook-secret"

interface Shop {
  url: string
  webhooks: Array<Record<string, unknown>>
  close(): Promise<void>
}

/** The merchant's side: two landing pages and a webhook endpoint that verifies. */
async function startShop(): Promise<Shop> {
  const sockets = new Set<Socket>()
  const webhooks: Array<Record<string, unknown>> = []
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://shop")
    if (req.method === "POST" && url.pathname === "/webhooks/paylater") {
      let raw = ""
      req.on("data", (c: Buffer) => (raw += c.toString()))
      req.on("end", () => {
        const body = JSON.parse(raw)
        const ok = verifyWebhook(body, SECRET).ok
        if (ok) webhooks.push(body)
        res.writeHead(ok ? 200 : 403, { "content-type": "application/json" })
        res.end(JSON.stringify({ message: ok ? "Webhook received successfully" : "Invalid signature" }))
      })
      return
    }
    const title = url.pathname === "/checkout/success" ? "Thank you for your order" : url.pathname === "/checkout/failed" ? "Payment not completed" : "Shop"
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    res.end(`<!doctype html><title>${title}</title><h1 id="shop-title">${title}</h1><p id="order">${url.searchParams.get("order") ?? ""}</p>`)
  })
  server.on("connection", (s) => {
    sockets.add(s)
    s.on("close", () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    webhooks,
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

describe("sandbox in a real browser", () => {
  let browser: Browser
  let shop: Shop
  let h: Harness

  beforeAll(async () => {
    const options = launchOptions() // first: a missing Chromium says so before anything starts
    fs.mkdirSync(RESULTS, { recursive: true })
    shop = await startShop()
    h = await harness({ webhookUrl: `${shop.url}/webhooks/paylater`, merchantId: "Doha Electronics" })
    browser = await chromium.launch(options)
  })

  afterAll(async () => {
    await browser?.close()
    await h?.sandbox.stop()
    await shop?.close()
  })

  it("hosted link: open, click 'Pay with PayLater', land on the shop's success page, webhook arrives", async () => {
    const api = await h.api()
    const body = linkBody({
      amount: 1299.99,
      success_redirect_url: `${shop.url}/checkout/success?order=web-1`,
      fail_redirect_url: `${shop.url}/checkout/failed?order=web-1`,
    })
    const created = await api.post("", body)
    expect(created.status).toBe(200)

    const page = await browser.newPage()
    try {
      await page.goto(created.data.paymentLinkUrl)
      await expect(page.locator("#amount").textContent()).resolves.toBe("QAR 1,299.99")
      await expect(page.locator("#merchant").textContent()).resolves.toBe("Doha Electronics")
      await expect(page.locator("tr.instalment").count()).resolves.toBe(4)
      await expect(page.locator("#approve").textContent()).resolves.toBe("Pay with PayLater")
      await expect(page.locator("#decline").textContent()).resolves.toBe("Decline")
      await expect(page.locator("#abandon").textContent()).resolves.toBe("Cancel and return to store")
      await page.screenshot({ path: path.join(RESULTS, "paylater-sandbox-checkout.png"), fullPage: true })

      await Promise.all([page.waitForURL(`${shop.url}/checkout/success?order=web-1`), page.click("#approve")])
      await expect(page.locator("#shop-title").textContent()).resolves.toBe("Thank you for your order")
      await page.screenshot({ path: path.join(RESULTS, "paylater-sandbox-success.png") })

      const deliveries = await h.sandbox.waitForDeliveries((d) => d.some((x) => x.status === "success" && x.outcome === "delivered"))
      expect(deliveries.map((d) => d.status)).toEqual(["pending", "success"])
      expect(shop.webhooks.map((w) => [w.orderId, w.status])).toEqual([
        [body.order_id, "pending"],
        [body.order_id, "success"],
      ])

      // Back button / second visit: the link is used up.
      const again = await page.goto(created.data.paymentLinkUrl)
      expect(again?.status()).toBe(410)
      await expect(page.locator("#message").textContent()).resolves.toContain("already been used")
      // ...and not a dead end: its button leads back to the store, through the attempt's success URL.
      await expect(page.locator("#back-to-store").textContent()).resolves.toBe("Back to the store to see your order")
      await page.screenshot({ path: path.join(RESULTS, "paylater-sandbox-used-link.png") })
      await Promise.all([page.waitForURL(`${shop.url}/checkout/success?order=web-1`), page.click("#back-to-store")])
      await expect(page.locator("#shop-title").textContent()).resolves.toBe("Thank you for your order")
    } finally {
      await page.close()
    }
  })

  it("hosted link: 'Cancel and return to store' lands on the failure page and leaves the order pending", async () => {
    const api = await h.api()
    const body = linkBody({ fail_redirect_url: `${shop.url}/checkout/failed?order=web-2` })
    const created = await api.post("", body)
    const page = await browser.newPage()
    try {
      await page.goto(created.data.paymentLinkUrl)
      await Promise.all([page.waitForURL(`${shop.url}/checkout/failed?order=web-2`), page.click("#abandon")])
      await expect(page.locator("#shop-title").textContent()).resolves.toBe("Payment not completed")
      expect(h.sandbox.order(body.order_id as string)?.status).toBe(1)
    } finally {
      await page.close()
    }
  })

  it("shopper app: approve a Request to Pay", async () => {
    const api = await h.api()
    const body = rtpBody()
    expect((await api.post("/request-to-pay", body)).status).toBe(200)
    const page = await browser.newPage()
    try {
      await page.goto(`${h.sandbox.url}/app?mobile=97451118021`)
      const ref = body.merchant_order_reference as string
      await Promise.all([page.waitForURL(/\/app\?mobile=97451118021&notice=/), page.click(`[id="approve-${ref}"]`)])
      await expect(page.locator("#notice").textContent()).resolves.toContain(ref)
      await h.sandbox.waitForDeliveries((d) => d.some((x) => x.orderId === ref && x.status === "success"))
      expect(shop.webhooks.filter((w) => w.orderId === ref).map((w) => w.status)).toEqual(["pending", "success"])
    } finally {
      await page.close()
    }
  })
})
