/**
 * As installed in a workspace shaped like Medusa's DTC starter (issue 26): a pnpm workspace with
 * apps/backend (Medusa 2.18.0, React 18 for its admin) and apps/storefront (Next 15, React 19). The
 * backend depends on the plugin's tarball (README section 1), and the storefront kit's tarball is
 * added with `pnpm add` as docs/storefront-dtc-starter.md section 1 says. Then:
 *
 * - the workspace holds one copy of the plugin, and the storefront no Medusa backend packages and
 *   no peer warnings of ours; the kit loads in the React 19 app (CommonJS, ESM, a component rendered);
 * - the guide's code blocks, pasted into a minimal starter-shaped Next app (guide-files.ts), pass a
 *   strict type check, build with `next build` and run with `next start`; in Chromium, on that one
 *   build (issue 45): a payment taken for a cart sold out meanwhile lands on the guide's "paid, order
 *   not placed" page with the kit's message and nothing that pays, and a cart PayLater's webhook
 *   completed while the starter's cache still holds it open leads to its confirmation and a fresh cart;
 * - a payment link and a Request to Pay through the backend's store API, each into one order;
 * - the old guide's mistake (the plugin added to the storefront too) makes pnpm keep a second copy
 *   of the plugin: the backend then loads the provider from the storefront's copy and the plugin's
 *   module from its own, and both methods still check out (the ledger port and the request
 *   context are process-wide, src/process-wide/process-slot.ts).
 *
 * The backend is the lowest Medusa of the plugin's peer range, so this suite also runs the day-one
 * checks as-installed.spec.ts runs on the highest (day-one-checks.ts): the peer ranges accept it, the
 * README's set-up command, a forged webhook refused, and `medusa build` with the plugin's admin
 * extensions, started from .medusa/server in production behind an HTTPS-terminating proxy, showing the
 * PayLater card in headless Chromium. The "second copy" restart runs from the backend's folder with
 * the admin disabled (its subject is the provider, not the admin).
 */
import { execFileSync } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import Medusa from "@medusajs/js-sdk"
import { decideOnLink } from "../http/paylater-link/shopper"
import { packedPlugin, freePorts, REPO_ROOT, startHttpsTerminatingProxy, type Running, type StepTiming } from "./fresh-store"
import { createWorkspace, peerIssuesByProject, STARTER_MEDUSA, type Workspace } from "./pnpm-workspace"
import { envLines, readmeSnippet } from "./readme-snippets"
import { copyDatabase, createDatabase, dropDatabase, writeSeedScript } from "./store-database"
import { expectAdminCardAndReadmeSteps, expectForgedWebhookRefused, expectPeersAccept, expectSetupQatarFromReadme, peerRangeFloor } from "./day-one-checks"
import { readyCart as readyCartOf, toReview } from "./ready-cart"
import { writeGuideFiles } from "./guide-files"
import { createRequire } from "node:module"
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core"

const { launchOptions } = require("../../scripts/lib/chromium") as {
  launchOptions(): { executablePath: string; args: string[] }
}

jest.setTimeout(20 * 60_000)

type Json = Record<string, any>

const README = path.join(REPO_ROOT, "README.md")
const GUIDE = path.join(REPO_ROOT, "docs", "storefront-dtc-starter.md")
const KIT_DIR = path.join(REPO_ROOT, "packages", "storefront-kit")
const PROVIDER_RESOLVE = `resolve: "medusa-payment-paylater/providers/paylater"`
const ADMIN = { email: "owner@starter-shaped.qa", password: "starter-shaped-password" }
const STOREFRONT_URL_OPTION = "storefrontUrl: process.env.STOREFRONT_URL,"
/**
 * The README's medusa-config.ts with the guide's return routes (its section 0, next to
 * `storefrontUrl`); for the "second copy" restart, the admin off and the provider from `providerResolve`.
 */
function medusaConfig(providerResolve?: string): string {
  let config = readmeSnippet(README, "medusa-config.ts")
  expect(config).toContain(PROVIDER_RESOLVE)
  expect(config).toContain(STOREFRONT_URL_OPTION)
  if (providerResolve) config = config.replace("  projectConfig: {", "  admin: { disable: true },\n  projectConfig: {")
  const indent = /\n( *)storefrontUrl:/.exec(config)![1]
  const templates = readmeSnippet(GUIDE, "guide-provider-templates").trim().split("\n").map((line) => indent + line.trim())
  config = config.replace(STOREFRONT_URL_OPTION, [STOREFRONT_URL_OPTION, ...templates].join("\n").trimStart())
  if (providerResolve) config = config.replace(PROVIDER_RESOLVE, `resolve: ${JSON.stringify(providerResolve)}`)
  return config
}

describe(`as installed in a pnpm workspace shaped like Medusa's DTC starter (Medusa ${STARTER_MEDUSA}, Next 15 / React 19 storefront)`, () => {
  const timings: StepTiming[] = []
  const databaseName = `paylater_pnpm_workspace_${process.pid}`
  // A new store's database for the README's set-up command: the store's as `medusa db:migrate` left it.
  const newStoreDatabase = `${databaseName}_setup`
  let newStoreUrl: string
  let proxy: { port: number; close(): Promise<void> } | undefined
  let linkOrderId: string | undefined
  let ws: Workspace
  let pluginTarball: string
  let kitAdd: string
  let server: Running | undefined
  let sandbox: Running
  let backend: string
  let sandboxUrl: string
  let medusaPort: number
  let storefront: string
  let browser: Browser | undefined
  let seeded: Json
  let sdk: Medusa
  let adminToken: string
  let runtimeEnv: NodeJS.ProcessEnv

  /** `medusa start` in `cwd` (the build's .medusa/server, or the backend's folder) with `env`. */
  async function startBackend(cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
    const started = Date.now()
    server = ws.backend.start("medusa start", path.join(ws.backend.dir, "node_modules", ".bin", "medusa"), ["start", "--port", String(medusaPort)], {
      cwd,
      env,
    })
    await server.waitFor(/Server is ready on port/, 240_000)
    timings.push({ step: "medusa start (until ready)", ms: Date.now() - started })
    const login = await fetch(`${backend}/auth/user/emailpass`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
    })
    adminToken = ((await login.json()) as { token: string }).token
  }

  async function stopBackend(): Promise<void> {
    if (!server) return
    const child = server.child
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        const kill = setTimeout(() => child.kill("SIGKILL"), 10_000)
        child.once("exit", () => {
          clearTimeout(kill)
          resolve()
        })
        child.kill("SIGTERM")
      })
    }
    server = undefined
  }

  async function orderPayments(orderId: string): Promise<Json> {
    const res = await fetch(
      `${backend}/admin/orders/${orderId}?fields=payment_status,payment_collections.payments.provider_id,payment_collections.payments.captures.id`,
      { headers: { authorization: `Bearer ${adminToken}` } }
    )
    expect(res.status).toBe(200)
    return ((await res.json()) as Json).order
  }

  const readyCart = () => readyCartOf(sdk, seeded)

  async function expectOneCapturedOrder(orderId: string, providerId: string): Promise<void> {
    const order = await orderPayments(orderId)
    expect(order.payment_status).toBe("captured")
    expect(order.payment_collections.flatMap((c: Json) => c.payments).map((p: Json) => [p.provider_id, p.captures.length])).toEqual([[providerId, 1]])
  }

  async function payByLink(): Promise<string> {
    const cart = await readyCart()
    const { payment_collection } = await sdk.store.payment.initiatePaymentSession(cart as any, { provider_id: "pp_paylater_paylater" })
    const session = payment_collection.payment_sessions!.find((s) => s.provider_id === "pp_paylater_paylater")!
    expect(session.data).toMatchObject({ amount: "360.00", currency: "QAR" })
    expect(String(session.data.payment_link_url).startsWith(sandboxUrl)).toBe(true)
    const back = await decideOnLink(String(session.data.payment_link_url), "approve")
    const returned = await fetch(back, { redirect: "manual" })
    expect(returned.status).toBe(303)
    // To the guide's return route (its section 0 templates).
    const landing = new URL(returned.headers.get("location")!)
    expect(`${landing.origin}${landing.pathname}`).toBe(`${storefront}/api/paylater/back`)
    expect(landing.searchParams.get("kind")).toBe("confirmed")
    const orderId = landing.searchParams.get("order_id")!
    await expectOneCapturedOrder(orderId, "pp_paylater_paylater")
    return orderId
  }

  async function payByRequestToPay(): Promise<void> {
    const cart = await readyCart()
    const { payment_collection } = await sdk.store.payment.initiatePaymentSession(cart as any, {
      provider_id: "pp_paylater-rtp_paylater",
      data: { mobile_number: "5111 8021" },
    })
    const session = payment_collection.payment_sessions!.find((s) => s.provider_id === "pp_paylater-rtp_paylater")!
    // The public view keeps the number masked: Medusa's merge of the session data drops what the provider clears.
    expect(session.data.mobile_number_masked).toMatch(/021$/)
    expect(JSON.stringify(session.data)).not.toContain("51118021")
    const approve = await fetch(`${sandboxUrl}/__sandbox/rtp/${encodeURIComponent(session.id)}/approve`, { method: "POST" })
    expect(approve.status).toBe(200)
    // The waiting screen's poll, bounded by count.
    let state: Json = {}
    for (let i = 0; i < 90 && state.status !== "paid"; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 1000))
      state = await sdk.client.fetch<Json>(`/store/paylater/payment-sessions/${session.id}`)
    }
    expect(state).toMatchObject({ status: "paid", order_id: expect.stringMatching(/^order_/) })
    await expectOneCapturedOrder(state.order_id, "pp_paylater-rtp_paylater")
  }

  beforeAll(async () => {
    const packDir = path.join(REPO_ROOT, ".tmp", "pnpm-workspace-pack")
    pluginTarball = (await packedPlugin(packDir, timings)).tarball
    let started = Date.now()
    // The kit's own tarball (packedPlugin may have used the run's folder for the plugin's: made here).
    fs.mkdirSync(packDir, { recursive: true })
    // --ignore-scripts: the kit's prepack (its tsc build) is part of the plugin's `npm run build`,
    // which packedPlugin above ran, or which PAYLATER_PLUGIN_BUILT=1 says was run (scripts/test.js,
    // .ci/run): the same build again changes nothing.
    const kitPack = execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", packDir], {
      cwd: KIT_DIR,
      encoding: "utf8",
    })
    const kitTarball = path.join(packDir, JSON.parse(kitPack.slice(kitPack.indexOf("[")))[0].filename)
    timings.push({ step: "npm pack (storefront kit)", ms: Date.now() - started })

    const [medusaSide, sandboxPort, storefrontPort] = await freePorts(3)
    medusaPort = medusaSide
    // The public address is the proxy's: production Medusa's admin session cookie is Secure.
    proxy = await startHttpsTerminatingProxy(0, medusaPort)
    backend = `http://localhost:${proxy.port}`
    sandboxUrl = `http://127.0.0.1:${sandboxPort}`
    storefront = `http://localhost:${storefrontPort}`
    const env = {
      DATABASE_URL: await createDatabase(databaseName),
      STORE_CORS: storefront,
      ADMIN_CORS: backend,
      AUTH_CORS: `${storefront},${backend}`,
      JWT_SECRET: "starter-shaped-jwt",
      COOKIE_SECRET: "starter-shaped-cookie",
      ...Object.fromEntries(
        envLines(readmeSnippet(README, ".env")).map(([key, value]) => [
          key,
          value.replace("http://127.0.0.1:4010", sandboxUrl).replace("http://localhost:9000", backend).replace("http://localhost:8000", storefront),
        ])
      ),
    }
    ws = createWorkspace({
      timings,
      pluginTarball,
      backendFiles: {
        "medusa-config.ts": medusaConfig(),
        ".env": Object.entries(env).map(([k, v]) => `${k}=${v}`).join("\n") + "\n",
        "tsconfig.json": JSON.stringify({
          compilerOptions: { target: "ES2021", module: "Node16", moduleResolution: "Node16", esModuleInterop: true, skipLibCheck: true, outDir: "./.medusa/server", rootDir: "./", strictNullChecks: true },
          "ts-node": { swc: true },
          include: ["**/*", ".medusa/types/*"],
          exclude: ["node_modules", ".medusa/server", ".medusa/admin"],
        }),
      },
    })
    ws.pnpm("pnpm install (workspace)", null, ["install", "--prefer-offline"])
    kitAdd = ws.pnpm("pnpm add medusa-payment-paylater-storefront (apps/storefront)", ws.storefront, ["add", "--prefer-offline", kitTarball])

    ws.backend.medusa("medusa db:migrate", ["db:migrate"])
    // Copied before the seed (the seeded store already sells in Qatar): a new store's database.
    newStoreUrl = await copyDatabase(databaseName, newStoreDatabase)
    const seedOut = path.join(ws.backend.dir, "seeded.json")
    writeSeedScript(ws.backend.dir, seedOut, ADMIN, "@medusajs/medusa/core-flows")
    ws.backend.medusa("medusa exec seed", ["exec", "./src/scripts/seed.ts"])
    seeded = JSON.parse(fs.readFileSync(seedOut, "utf8"))
    ws.backend.medusa("medusa build", ["build"])
    // Production: the built server in .medusa/server with the backend's node_modules.
    const serverDir = path.join(ws.backend.dir, ".medusa", "server")
    fs.symlinkSync(path.join(ws.backend.dir, "node_modules"), path.join(serverDir, "node_modules"), "dir")

    sandbox = ws.backend.start("sandbox", path.join(ws.backend.dir, "node_modules", ".bin", "paylater-sandbox"), [
      "--port",
      String(sandboxPort),
      "--webhook-url",
      `${backend}/paylater/webhooks`,
    ])
    await sandbox.waitFor(/Press Ctrl\+C to stop/, 30_000)
    runtimeEnv = { ...ws.backend.env, ...env }
    await startBackend(serverDir, { ...runtimeEnv, NODE_ENV: "production" })
    sdk = new Medusa({ baseUrl: backend, publishableKey: seeded.publishableKey })
  })

  afterAll(async () => {
    await browser?.close()
    await proxy?.close()
    await stopBackend()
    await ws?.backend.stopAll()
    await ws?.storefront.stopAll()
    console.log(
      `pnpm-workspace timings: ${timings.map((t) => `${t.step} ${(t.ms / 1000).toFixed(1)} s`).join(", ")}; total ${(
        timings.reduce((sum, t) => sum + t.ms, 0) / 1000
      ).toFixed(1)} s`
    )
    if (ws && !process.env.KEEP_FRESH_STORE) {
      fs.rmSync(ws.root, { recursive: true, force: true })
      await dropDatabase(databaseName)
      await dropDatabase(newStoreDatabase)
    }
  })

  it(`is the lowest Medusa of the package's peer range (${STARTER_MEDUSA}), which the peer ranges accept`, () => {
    expect(STARTER_MEDUSA).toBe(peerRangeFloor())
    expectPeersAccept(ws.backend.dir, STARTER_MEDUSA)
  })

  it("boots from its build: the providers registered, the reconciliation job says its schedule", async () => {
    expect(seeded.regionPaymentProviders).toEqual(expect.arrayContaining(["pp_paylater_paylater", "pp_paylater-rtp_paylater"]))
    const { payment_providers } = await sdk.store.payment.listPaymentProviders({ region_id: seeded.regionId })
    expect(payment_providers.map((p) => p.id)).toEqual(expect.arrayContaining(["pp_paylater_paylater", "pp_paylater-rtp_paylater"]))
    // Production logs are JSON lines, so the quotes arrive escaped.
    expect(server!.output()).toMatch(/PayLater reconciliation: scheduled \\?"\*\/2 \* \* \* \*\\?" \(every 2 minutes\)/)
  })

  it("refuses a forged webhook with 403 and a JSON message", async () => {
    await expectForgedWebhookRefused(sandboxUrl)
  })

  it("sets a store up for Qatar with the README's one command, from the installed package; a second run changes nothing", () => {
    const env = { ...ws.backend.env, DATABASE_URL: newStoreUrl }
    expectSetupQatarFromReadme((step, args) => ws.backend.medusa(step, args, { env }), { again: true })
  })

  it("the guide's `pnpm add` puts no backend into the storefront: one copy of the plugin, no Medusa server packages, no peer warnings of ours", () => {
    expect(fs.readFileSync(GUIDE, "utf8")).toContain("pnpm add medusa-payment-paylater-storefront")
    expect(ws.copiesOf("medusa-payment-paylater")).toHaveLength(1)
    const storefrontDeps = fs.readdirSync(path.join(ws.storefront.dir, "node_modules", "@medusajs"))
    // The starter's own (its js-sdk, and its types as a dev dependency); nothing the kit brought.
    expect(storefrontDeps).toEqual(["js-sdk", "types"])
    expect(fs.existsSync(path.join(ws.storefront.dir, "node_modules", "medusa-payment-paylater"))).toBe(false)
    // Medusa's own packages have peer issues of their own in the backend (not ours to fix); the
    // storefront has none, and nothing in the report names this plugin or its kit.
    const issues = peerIssuesByProject(kitAdd)
    expect(Object.keys(issues).filter((project) => project !== "apps/backend")).toEqual([])
    expect(Object.values(issues).join("")).not.toMatch(/paylater/i)
  })

  it("the kit loads in the React 19 storefront: CommonJS, ESM and a component rendered on the server", () => {
    const probe = [
      `const kit = require("medusa-payment-paylater-storefront")`,
      `const { createElement } = require("react")`,
      `const { renderToString } = require("react-dom/server")`,
      `const { PayLaterPendingNotice } = require("medusa-payment-paylater-storefront/react")`,
      `import("medusa-payment-paylater-storefront").then((esm) => {`,
      `  const html = renderToString(createElement(PayLaterPendingNotice, { sdk: {}, cartId: "cart_1", onOrder: () => {}, onFailed: () => {} }))`,
      `  console.log(JSON.stringify({ react: require("react").version, cjs: typeof kit.readPayLaterReturn, esm: typeof esm.readPayLaterReturn, link: kit.PAYLATER_LINK_PROVIDER_ID, html: html.includes("paylater-") }))`,
      `})`,
    ].join("\n")
    const out = ws.storefront.run("storefront kit import", process.execPath, ["-e", probe])
    expect(JSON.parse(out.trim().split("\n").pop()!)).toEqual({ react: "19.0.5", cjs: "function", esm: "function", link: "pp_paylater_paylater", html: true })

    // The types, as a TypeScript storefront on React 19's types sees them (the starter's resolution).
    fs.writeFileSync(
      path.join(ws.storefront.dir, "kit-types.tsx"),
      [
        `import { payLaterChoice, type PayLaterSdk } from "medusa-payment-paylater-storefront"`,
        `import { PayLaterButton } from "medusa-payment-paylater-storefront/react"`,
        `export const method: string | null = payLaterChoice(new URLSearchParams("paylater=pp_paylater_paylater"), null)`,
        `export const button = (sdk: PayLaterSdk) => <PayLaterButton sdk={sdk} cart={{ id: "cart_1" }} />`,
        ``,
      ].join("\n")
    )
    ws.storefront.run("tsc (storefront, React 19 types)", path.join(ws.storefront.dir, "node_modules", ".bin", "tsc"), [
      "--noEmit",
      "--strict",
      "--jsx",
      "react-jsx",
      "--module",
      "esnext",
      "--moduleResolution",
      "bundler",
      "--skipLibCheck",
      "--types",
      "react",
      "kit-types.tsx",
    ])
  })

  it("the guide's code blocks compile as pasted in the Next 15 / React 19 storefront, against the installed kit (issue 34)", () => {
    const tsconfig = writeGuideFiles(GUIDE, ws.storefront.dir)
    ws.storefront.run("tsc (the guide's files)", path.join(ws.storefront.dir, "node_modules", ".bin", "tsc"), ["-p", tsconfig])
  })

  /** The kit as the storefront installed it (not this repository's sources). */
  const installedKit = () =>
    createRequire(path.join(ws.storefront.dir, "package.json"))("medusa-payment-paylater-storefront") as typeof import("../../src/storefront")

  it("the guide's files build with `next build` (Next 15) and run with `next start`", async () => {
    const nextBin = path.join(ws.storefront.dir, "node_modules", "next", "dist", "bin", "next")
    expect(JSON.parse(fs.readFileSync(path.join(ws.storefront.dir, "node_modules", "next", "package.json"), "utf8")).version).toMatch(/^15\./)
    const appEnv = {
      ...ws.storefront.env,
      NEXT_TELEMETRY_DISABLED: "1",
      MEDUSA_BACKEND_URL: backend,
      NEXT_PUBLIC_MEDUSA_BACKEND_URL: backend,
      NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY: seeded.publishableKey,
      NEXT_PUBLIC_DEFAULT_REGION: "qa",
      SHOP_REGION_ID: seeded.regionId,
    }
    const built = ws.storefront.run("next build (the guide's files)", process.execPath, [nextBin, "build"], { env: appEnv })
    // The routes the plays go through were built (dynamic: they read the cart cookie).
    for (const route of ["/api/paylater/back", "/[countryCode]/checkout", "/[countryCode]/paylater/paid-not-placed", "/[countryCode]/order/[id]/confirmed"]) {
      expect(built).toContain(route)
    }
    const started = Date.now()
    const app = ws.storefront.start("next start", process.execPath, [nextBin, "start", "--port", new URL(storefront).port], { env: appEnv })
    await app.waitFor(/Ready in/, 60_000)
    timings.push({ step: "next start (until ready)", ms: Date.now() - started })
    browser = await chromium.launch(launchOptions())
  })

  /** A shopper's browser on the built storefront. */
  async function shopper(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser!.newContext()
    return { context, page: await context.newPage() }
  }

  async function cartCookie(context: BrowserContext): Promise<string | undefined> {
    return (await context.cookies(storefront)).find((c) => c.name === "_medusa_cart_id")?.value
  }

  /** The header's cart link reads `Cart (n)`. */
  async function headerSays(page: Page, count: number): Promise<void> {
    await page.getByTestId("nav-cart-link").filter({ hasText: `Cart (${count})` }).waitFor({ timeout: 30_000 })
  }

  /** "Add to cart" on the storefront, as the shopper clicks it; returns the cart cookie's cart. */
  async function addToCart(context: BrowserContext, page: Page, variantId: string): Promise<string> {
    await page.goto(`${storefront}/qa?v_id=${encodeURIComponent(variantId)}`)
    await page.getByTestId("add-product-button").click()
    await headerSays(page, 1)
    const cartId = await cartCookie(context)
    expect(cartId).toMatch(/^cart_/)
    return cartId!
  }

  async function adminCall(method: string, route: string, body?: unknown): Promise<Json> {
    const res = await fetch(`${backend}${route}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${await res.text()}`)
    return (await res.json()) as Json
  }

  /** A product whose stock Medusa manages (the seed's do not): one unit, at the seed's location, through the admin API. */
  async function oneInStock(): Promise<{ variantId: string; soldOut(): Promise<void> }> {
    const { product } = await adminCall("POST", "/admin/products", {
      title: "Last one in stock",
      status: "published",
      shipping_profile_id: seeded.shippingProfileId,
      sales_channels: [{ id: seeded.salesChannelId }],
      options: [{ title: "Size", values: ["One"] }],
      variants: [{ title: "One", sku: `PNPM-STOCKED-${Date.now()}`, manage_inventory: true, options: { Size: "One" }, prices: [{ currency_code: "qar", amount: 350 }] }],
    })
    const { product: withStock } = await adminCall("GET", `/admin/products/${product.id}?fields=variants.id,*variants.inventory_items`)
    const variant = withStock.variants[0]
    const inventoryItemId: string = variant.inventory_items[0].inventory_item_id
    await adminCall("POST", `/admin/inventory-items/${inventoryItemId}/location-levels`, { location_id: seeded.stockLocationId, stocked_quantity: 1 })
    return {
      variantId: variant.id,
      soldOut: async () =>
        void (await adminCall("POST", `/admin/inventory-items/${inventoryItemId}/location-levels/${seeded.stockLocationId}`, { stocked_quantity: 0 })),
    }
  }

  it("on the built storefront, paid but sold out meanwhile: the guide's page shows the kit's message and nothing pays again", async () => {
    const kit = installedKit()
    const stocked = await oneInStock()
    const { context, page } = await shopper()
    try {
      const cart = await toReview(sdk, await addToCart(context, page, stocked.variantId))
      const { payment_collection } = await sdk.store.payment.initiatePaymentSession(cart as any, { provider_id: "pp_paylater_paylater" })
      const session = payment_collection.payment_sessions!.find((s) => s.provider_id === "pp_paylater_paylater")!
      // The last unit sells elsewhere while the shopper is on PayLater's page; they pay there.
      await stocked.soldOut()
      await page.goto(String(session.data.payment_link_url))
      await page.locator("button#approve").click()
      // PayLater → Medusa's return → the guide's return route (its own hop) → its page for the reason.
      await page.waitForURL(`${storefront}/qa/paylater/paid-not-placed`, { timeout: 120_000 })
      const shows = async () => {
        expect(await page.getByTestId("paylater-paid-not-placed").textContent()).toBe(kit.failureMessage("paid_not_placed"))
        // Nothing that pays: no button or form at all, and the only link goes back to the store ("/" localized).
        expect(await page.locator("button, input[type=submit], form").count()).toBe(0)
        expect(await page.locator("a").evaluateAll((links) => links.map((a) => a.getAttribute("href")))).toEqual(["/qa"])
      }
      await shows()
      // A reload is the same page.
      await page.reload()
      expect(page.url()).toBe(`${storefront}/qa/paylater/paid-not-placed`)
      await shows()
    } finally {
      await context.close()
    }
  })

  /**
   * A cart in the shopper's browser, seen at the checkout (the starter's cached retrieveCart now
   * holds it open), then paid on PayLater's page elsewhere (another tab, the phone) without following
   * the redirect back: PayLater's notification alone places the order. Returns the cart and its order.
   */
  async function completedByWebhookOnly(context: BrowserContext, page: Page): Promise<{ cartId: string; orderId: string }> {
    const kit = installedKit()
    const cartId = await addToCart(context, page, seeded.variants.standard.id)
    const cart = await toReview(sdk, cartId)
    await page.goto(`${storefront}/qa/checkout`)
    expect(await page.getByTestId("checkout-cart").textContent()).toContain(cartId)
    const { payment_collection } = await sdk.store.payment.initiatePaymentSession(cart as any, { provider_id: "pp_paylater_paylater" })
    const session = payment_collection.payment_sessions!.find((s) => s.provider_id === "pp_paylater_paylater")!
    await decideOnLink(String(session.data.payment_link_url), "approve")
    let placed: { orderId: string } | null = null
    for (let i = 0; i < 90 && !placed; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 1000))
      placed = await kit.fetchPlacedOrder(sdk, cartId)
    }
    expect(placed).toEqual({ orderId: expect.stringMatching(/^order_/) })
    await expectOneCapturedOrder(placed!.orderId, "pp_paylater_paylater")
    return { cartId, orderId: placed!.orderId }
  }

  /** The cart cookie names a new, open cart holding one unit of the standard item. */
  async function freshCartIn(context: BrowserContext, oldCartId: string): Promise<void> {
    const fresh = await cartCookie(context)
    expect(fresh).toMatch(/^cart_/)
    expect(fresh).not.toBe(oldCartId)
    const { cart } = await sdk.store.cart.retrieve(fresh!, { fields: "id,completed_at,*items" })
    expect(cart.completed_at).toBeNull()
    expect(cart.items!.map((item) => [item.variant_id, item.quantity])).toEqual([[seeded.variants.standard.id, 1]])
  }

  it("on the built storefront, a cart PayLater's webhook completed while cached as open: the checkout leads to its confirmation, then a fresh cart", async () => {
    const { context, page } = await shopper()
    try {
      const { cartId, orderId } = await completedByWebhookOnly(context, page)
      const placed = { orderId }

      // Back in the first tab, the shopper reopens the checkout.
      await page.goto(`${storefront}/qa/checkout`)
      await page.waitForURL(`${storefront}/qa/order/${placed!.orderId}/confirmed`, { timeout: 30_000 })
      await page.getByTestId("order-complete-container").waitFor()
      await headerSays(page, 0)
      expect(await cartCookie(context)).toBeUndefined()

      // "Add to cart" makes a fresh cart.
      await addToCart(context, page, seeded.variants.standard.id)
      await freshCartIn(context, cartId)
      await expectOneCapturedOrder(placed.orderId, "pp_paylater_paylater")
    } finally {
      await context.close()
    }
  })

  it("on the built storefront, \"Add to cart\" on a cart PayLater's webhook completed (its cookie still set): a fresh cart, not the completed one", async () => {
    const { context, page } = await shopper()
    try {
      const { cartId, orderId } = await completedByWebhookOnly(context, page)
      // The shopper goes on shopping instead: the cookie still names the completed cart.
      expect(await cartCookie(context)).toBe(cartId)
      await page.goto(`${storefront}/qa?v_id=${encodeURIComponent(seeded.variants.standard.id)}`)
      await page.getByTestId("add-product-button").click()
      for (let i = 0; i < 60 && (await cartCookie(context)) === cartId; i++) await new Promise((r) => setTimeout(r, 500))
      await headerSays(page, 1)
      await freshCartIn(context, cartId)
      await expectOneCapturedOrder(orderId, "pp_paylater_paylater")
    } finally {
      await context.close()
    }
  })

  it("after a webhook-only completion, 'pay again' leads to the order's confirmation: no second payment, the cart forgotten (issue 34)", async () => {
    // The kit as the storefront installed it (not this repository's sources).
    const kit = createRequire(path.join(ws.storefront.dir, "package.json"))("medusa-payment-paylater-storefront") as typeof import("../../src/storefront")
    const cart = await readyCart()
    expect(await kit.fetchPlacedOrder(sdk, cart.id)).toBeNull()
    const { payment_collection } = await sdk.store.payment.initiatePaymentSession(cart as any, { provider_id: "pp_paylater_paylater" })
    const session = payment_collection.payment_sessions!.find((s) => s.provider_id === "pp_paylater_paylater")!
    // Paid on PayLater's page; the shopper never follows the redirect back: the webhook alone places the order.
    await decideOnLink(String(session.data.payment_link_url), "approve")
    let placed: { orderId: string } | null = null
    for (let i = 0; i < 90 && !placed; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 1000))
      placed = await kit.fetchPlacedOrder(sdk, cart.id)
    }
    expect(placed).toEqual({ orderId: expect.stringMatching(/^order_/) })

    // The tab still shows the review step and the shopper presses "Pay with PayLater" again.
    const again = await sdk.store.payment.initiatePaymentSession(cart as any, { provider_id: "pp_paylater_paylater" }).then(
      () => null,
      (error: unknown) => kit.toCheckoutError(error)
    )
    expect(again).toMatchObject({ code: "already_placed", status: 409, orderId: placed!.orderId })
    const steps: string[] = []
    await kit.leaveForPlacedOrder(kit.placedOrderOf(again)!, {
      countryCode: "qa",
      forgetCart: async () => void steps.push("forget the cart"),
      navigate: (to) => void steps.push(to),
    })
    expect(steps).toEqual(["forget the cart", `/qa/order/${placed!.orderId}/confirmed`])
    await expectOneCapturedOrder(placed!.orderId, "pp_paylater_paylater")
  })

  it("takes a payment link through the backend's store API into one captured order", async () => {
    linkOrderId = await payByLink()
  })

  it("takes a Request to Pay through the backend's store API into one captured order", async () => {
    await payByRequestToPay()
  })

  it("shows the PayLater card on the order page of the built admin, and the admin steps of README section 3 as named", async () => {
    expect(linkOrderId).toBeDefined()
    await expectAdminCardAndReadmeSteps({
      backend,
      login: ADMIN,
      orderId: linkOrderId!,
      regionId: seeded.regionId,
      admin: adminCall,
      shots: path.join(REPO_ROOT, "test-results", "pnpm-workspace"),
    })
  })

  it("still works when pnpm keeps a second copy of the plugin and Medusa loads the provider from it", async () => {
    // The old guide's step: the plugin added to the storefront too. pnpm resolves its peers (React
    // 19 there, 18 in the backend) into a second copy, and the hidden hoisted link may point at
    // either; here the provider is loaded from the storefront's copy on purpose, the plugin (its
    // module, routes and middleware) from the backend's.
    ws.pnpm("pnpm add medusa-payment-paylater (apps/storefront, the old guide's mistake)", ws.storefront, ["add", "--prefer-offline", pluginTarball])
    const backendCopy = fs.realpathSync(path.join(ws.backend.dir, "node_modules", "medusa-payment-paylater"))
    const storefrontCopy = fs.realpathSync(path.join(ws.storefront.dir, "node_modules", "medusa-payment-paylater"))
    expect(ws.copiesOf("medusa-payment-paylater")).toHaveLength(2)
    expect(storefrontCopy).not.toBe(backendCopy)

    await stopBackend()
    fs.writeFileSync(
      path.join(ws.backend.dir, "medusa-config.ts"),
      medusaConfig(path.join(storefrontCopy, ".medusa", "server", "src", "providers", "paylater"))
    )
    await startBackend(ws.backend.dir, { ...runtimeEnv, NODE_ENV: "development" })
    await payByLink()
    await payByRequestToPay()
  })
})
