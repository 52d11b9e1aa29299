/**
 * As installed: the packed plugin in a fresh Medusa store, configured from the README's own words,
 * built and started the way production runs it (`medusa build`, then `medusa start` in
 * .medusa/server with NODE_ENV=production). Then what a merchant does on day one:
 *
 * - the tarball holds what a store needs and nothing else (no tests, a LICENSE);
 * - `medusa db:migrate` creates the plugin's table (the package's module resolves);
 * - the sandbox starts from the package's own bin (`npx paylater-sandbox`);
 * - a payment-link checkout and a Request to Pay through `@medusajs/js-sdk`, each ending in one
 *   captured order;
 * - a forged webhook answered 403 with a JSON message;
 * - the reconciliation job's boot line;
 * - the admin (built by `medusa build` with the plugin's extensions) shows the PayLater card on
 *   the order page in headless Chromium.
 *
 * All of it on the Medusa the plugin is developed on (medusaVersionsUnderTest; PAYLATER_AS_INSTALLED_MEDUSA
 * names others). The lowest Medusa of the peer range gets the same day-one checks in the DTC
 * starter's shape (pnpm-workspace.spec.ts), which already installs, migrates and runs that version.
 *
 * The dev store (medusa-config.ts at the repo root) loads ./src; only this suite proves the package.
 */
import fs from "node:fs"
import path from "node:path"
import Medusa from "@medusajs/js-sdk"
import { decideOnLink } from "../http/paylater-link/shopper"
import {
  packedPlugin,
  createStore,
  startRegistryInstall,
  freePorts,
  medusaVersionsUnderTest,
  developmentMedusa,
  REPO_ROOT,
  startHttpsTerminatingProxy,
  type FreshStore,
  type Running,
  type StepTiming,
} from "./fresh-store"
import { envLines, readmeSnippet } from "./readme-snippets"
import { copyDatabase, createDatabase, dropDatabase, writeSeedScript } from "./store-database"
import { readyCart as readyCartOf } from "./ready-cart"
import { expectAdminCardAndReadmeSteps, expectForgedWebhookRefused, expectPeersAccept, expectSetupQatarFromReadme } from "./day-one-checks"

jest.setTimeout(15 * 60_000)

const README = path.join(REPO_ROOT, "README.md")
const SHOTS_ROOT = path.join(REPO_ROOT, "test-results", "as-installed")
const ADMIN = { email: "owner@fresh-store.qa", password: "fresh-store-password" }
type Json = Record<string, any>

// One tarball for every store: built and packed by the first store that needs it (packedPlugin: once
// per test run, shared with the other suites that install it).
let packed: Promise<{ tarball: string; files: string[] }> | undefined
function packOnce(timings: StepTiming[]): Promise<{ tarball: string; files: string[] }> {
  packed ??= packedPlugin(path.join(REPO_ROOT, ".tmp", "as-installed-pack"), timings)
  return packed
}

// The stores on other Medusa versions download their dependencies while the plugin is built and packed.
for (const medusaVersion of medusaVersionsUnderTest()) startRegistryInstall(medusaVersion)

describe.each(medusaVersionsUnderTest())("as installed: the npm package in a fresh Medusa %s store", (medusaVersion) => {
  const timings: StepTiming[] = []
  const SHOTS = path.join(SHOTS_ROOT, medusaVersion)
  let store: FreshStore
  let packedFiles: string[]
  let sandbox: Running
  let server: Running
  let proxy: { port: number; close(): Promise<void> } | undefined
  let backend: string
  let sandboxUrl: string
  let seeded: Json
  let sdk: Medusa
  let adminToken: string
  const orders: { link?: string; rtp?: string } = {}
  const databaseName = `paylater_as_installed_${process.pid}_${medusaVersion.replace(/\W/g, "_")}`
  // A new store's database for the README's set-up command: the store's as `medusa db:migrate` left it.
  const newStoreDatabase = `${databaseName}_setup`
  let newStoreUrl: string

  async function admin(method: string, pathname: string, body?: unknown): Promise<Json> {
    const res = await fetch(`${backend}${pathname}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const json = (await res.json().catch(() => ({}))) as Json
    if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${JSON.stringify(json)}`)
    return json
  }

  /** A cart ready to pay (ready-cart.ts), its total checked. */
  async function readyCart(): Promise<Json> {
    const cart = await readyCartOf(sdk, seeded)
    expect(Number(cart.total)).toBe(360)
    return cart
  }

  async function orderPayments(orderId: string): Promise<Json> {
    const { order } = await admin(
      "GET",
      `/admin/orders/${orderId}?fields=payment_status,total,payment_collections.payments.provider_id,payment_collections.payments.captures.id`
    )
    return order
  }

  beforeAll(async () => {
    const { tarball, files } = await packOnce(timings)
    packedFiles = files

    // The public address is the proxy's (see startHttpsTerminatingProxy); Medusa listens behind it.
    const [medusaPort, sandboxPort] = await freePorts(2)
    proxy = await startHttpsTerminatingProxy(0, medusaPort)
    backend = `http://localhost:${proxy.port}`
    sandboxUrl = `http://127.0.0.1:${sandboxPort}`
    const databaseUrl = await createDatabase(databaseName)

    // README section 8's .env, on this run's free ports; the rest is what create-medusa-app writes.
    const paylaterEnv = Object.fromEntries(
      envLines(readmeSnippet(README, ".env")).map(([key, value]) => [
        key,
        value
          .replace("http://127.0.0.1:4010", sandboxUrl)
          .replace("http://localhost:9000", backend),
      ])
    )
    const env = {
      DATABASE_URL: databaseUrl,
      STORE_CORS: "http://localhost:8000",
      ADMIN_CORS: backend,
      AUTH_CORS: `http://localhost:8000,${backend}`,
      JWT_SECRET: "fresh-store-jwt",
      COOKIE_SECRET: "fresh-store-cookie",
      ...paylaterEnv,
    }
    store = await createStore({ tarball, medusaVersion, medusaConfig: readmeSnippet(README, "medusa-config.ts"), env, timings })

    store.medusa("medusa db:migrate", ["db:migrate"])
    // Copied before the seed (the seeded store already sells in Qatar): what a second migrate of an
    // empty database would give, without a second Medusa boot.
    newStoreUrl = await copyDatabase(databaseName, newStoreDatabase)
    const seedOut = path.join(store.dir, "seeded.json")
    writeSeedScript(store.dir, seedOut, ADMIN)
    store.medusa("medusa exec seed", ["exec", "./src/scripts/seed.ts"])
    seeded = JSON.parse(fs.readFileSync(seedOut, "utf8"))
    store.medusa("medusa build", ["build"])

    // Production: the built server in .medusa/server, its own node_modules (the store's, as
    // `npm install` there would give), the environment from the platform (here: the .env values).
    const serverDir = path.join(store.dir, ".medusa", "server")
    fs.symlinkSync(path.join(store.dir, "node_modules"), path.join(serverDir, "node_modules"), "dir")
    const runtimeEnv = { ...store.env, ...env, NODE_ENV: "production", PORT: String(medusaPort) }

    sandbox = store.start("sandbox", process.execPath, [
      path.join(store.dir, "node_modules", ".bin", "paylater-sandbox"),
      "--port",
      String(sandboxPort),
      "--webhook-url",
      `${backend}/paylater/webhooks`,
    ])
    await sandbox.waitFor(/Press Ctrl\+C to stop/, 30_000)

    const started = Date.now()
    server = store.start("medusa start", process.execPath, [path.join(store.dir, "node_modules", "@medusajs", "cli", "cli.js"), "start", "--port", String(medusaPort)], {
      cwd: serverDir,
      env: runtimeEnv,
    })
    await server.waitFor(/Server is ready on port/, 180_000)
    timings.push({ step: "medusa start (until ready)", ms: Date.now() - started })

    sdk = new Medusa({ baseUrl: backend, publishableKey: seeded.publishableKey })
    const login = await fetch(`${backend}/auth/user/emailpass`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
    })
    adminToken = ((await login.json()) as { token: string }).token
  })

  afterAll(async () => {
    await proxy?.close()
    await store?.stopAll()
    const total = timings.reduce((sum, t) => sum + t.ms, 0)
    // The issue asks how long this takes: every run says so.
    console.log(
      `as-installed timings (Medusa ${medusaVersion}): ${timings.map((t) => `${t.step} ${(t.ms / 1000).toFixed(1)} s`).join(", ")}; setup total ${(total / 1000).toFixed(1)} s`
    )
    if (store && !process.env.KEEP_FRESH_STORE) {
      fs.rmSync(store.dir, { recursive: true, force: true })
      await dropDatabase(databaseName)
      await dropDatabase(newStoreDatabase)
    }
  })

  it(`runs on Medusa ${medusaVersion}, which the package's peer ranges accept`, () => {
    expectPeersAccept(store.dir, medusaVersion)
  })

  it("ships what a store needs and nothing else", () => {
    expect(packedFiles.filter((f) => /__tests__|\.spec\.|integration-tests|demo\//.test(f))).toEqual([])
    expect(packedFiles).toEqual(
      expect.arrayContaining([
        "LICENSE",
        "README.md",
        "package.json",
        ".medusa/server/src/providers/paylater/index.js",
        ".medusa/server/src/modules/paylater-ledger/index.js",
        ".medusa/server/src/admin/index.mjs",
        ".medusa/server/src/sandbox/cli.js",
        ".medusa/server/src/api/paylater/webhooks/route.js",
        ".medusa/server/src/jobs/paylater-reconcile.js",
      ])
    )
    expect(packedFiles.some((f) => f.startsWith(".medusa/server/src/modules/paylater-ledger/migrations/Migration"))).toBe(true)
    const pkg = JSON.parse(fs.readFileSync(path.join(store.dir, "node_modules", "medusa-payment-paylater", "package.json"), "utf8"))
    // A store provides Medusa itself and its admin; test and CLI tooling are never asked of it.
    // React for the admin extensions. All optional: nothing here is asked of a project that does
    // not run Medusa's admin.
    const peers = ["@medusajs/admin-sdk", "@medusajs/framework", "@medusajs/medusa", "@medusajs/ui", "react"]
    expect(Object.keys(pkg.peerDependencies).sort()).toEqual(peers)
    expect(pkg.peerDependenciesMeta).toEqual(Object.fromEntries(peers.map((p) => [p, { optional: true }])))
  })

  it("leaves the storefront kit to its own package (a storefront installs no backend)", () => {
    // The kit is medusa-payment-paylater-storefront (packages/storefront-kit; pnpm-workspace.spec.ts
    // installs it in a starter-shaped workspace). The plugin ships only the kit's shopper messages,
    // which its store API answers with, and no React components.
    expect(packedFiles.filter((f) => f.startsWith(".medusa/server/src/storefront/react/"))).toEqual([])
    const pkg = JSON.parse(fs.readFileSync(path.join(store.dir, "node_modules", "medusa-payment-paylater", "package.json"), "utf8"))
    expect(Object.keys(pkg.exports).filter((k) => k.startsWith("./storefront"))).toEqual([])
  })

  it("boots: the plugin's table exists, the providers are registered, the job says its schedule", async () => {
    expect(seeded.regionPaymentProviders).toEqual(expect.arrayContaining(["pp_paylater_paylater", "pp_paylater-rtp_paylater"]))
    // Production logs are JSON lines, so the quotes arrive escaped.
    expect(server.output()).toMatch(/PayLater reconciliation: scheduled \\?"\*\/2 \* \* \* \*\\?" \(every 2 minutes\)/)
    const { payment_providers } = await sdk.store.payment.listPaymentProviders({ region_id: seeded.regionId })
    expect(payment_providers.map((p) => p.id)).toEqual(expect.arrayContaining(["pp_paylater_paylater", "pp_paylater-rtp_paylater"]))
  })

  it("takes a payment-link checkout into one captured order", async () => {
    const cart = await readyCart()
    const { payment_collection } = await sdk.store.payment.initiatePaymentSession(cart as any, { provider_id: "pp_paylater_paylater" })
    const session = payment_collection.payment_sessions!.find((s) => s.provider_id === "pp_paylater_paylater")!
    expect(session.data).toMatchObject({ amount: "360.00", currency: "QAR" })
    const linkUrl = String(session.data.payment_link_url)
    expect(linkUrl.startsWith(sandboxUrl)).toBe(true)

    const back = await decideOnLink(linkUrl, "approve")
    expect(back.startsWith(`${backend}/paylater/return/`)).toBe(true)
    const returned = await fetch(back, { redirect: "manual" })
    expect(returned.status).toBe(303)
    const landing = new URL(returned.headers.get("location")!)
    expect(landing.pathname).toMatch(/^\/order\/confirmed\/order_/)
    orders.link = decodeURIComponent(landing.pathname.split("/").pop()!)

    const order = await orderPayments(orders.link)
    expect(order.payment_status).toBe("captured")
    expect(order.payment_collections.flatMap((c: Json) => c.payments).map((p: Json) => [p.provider_id, p.captures.length])).toEqual([
      ["pp_paylater_paylater", 1],
    ])
  })

  it("takes a Request to Pay: the shopper approves in the app, the webhook places one captured order", async () => {
    const cart = await readyCart()
    const { payment_collection } = await sdk.store.payment.initiatePaymentSession(cart as any, {
      provider_id: "pp_paylater-rtp_paylater",
      data: { mobile_number: "5111 8021" },
    })
    const session = payment_collection.payment_sessions!.find((s) => s.provider_id === "pp_paylater-rtp_paylater")!
    expect(session.data.mobile_number_masked).toMatch(/021$/)
    expect(JSON.stringify(session.data)).not.toContain("51118021")

    const approve = await fetch(`${sandboxUrl}/__sandbox/rtp/${encodeURIComponent(session.id)}/approve`, { method: "POST" })
    expect(approve.status).toBe(200)

    // The waiting screen's poll, as README section 5b shows it.
    const deadline = Date.now() + 90_000
    let state: Json = {}
    while (Date.now() < deadline) {
      state = await sdk.client.fetch<Json>(`/store/paylater/payment-sessions/${session.id}`)
      if (state.status === "paid") break
      await new Promise((r) => setTimeout(r, 1000))
    }
    expect(state).toMatchObject({ status: "paid", order_id: expect.stringMatching(/^order_/) })
    orders.rtp = state.order_id
    const order = await orderPayments(state.order_id)
    expect(order.payment_status).toBe("captured")
    expect(order.payment_collections.flatMap((c: Json) => c.payments).map((p: Json) => [p.provider_id, p.captures.length])).toEqual([
      ["pp_paylater-rtp_paylater", 1],
    ])
  })

  it("refuses a forged webhook with 403 and a JSON message", async () => {
    await expectForgedWebhookRefused(sandboxUrl)
  })

  it("sets a store up for Qatar with the README's one command, from the installed package", () => {
    // A new store's database (migrated, never seeded: the seeded one already sells in Qatar).
    const env = { ...store.env, DATABASE_URL: newStoreUrl }
    // Once: on this repository's Medusa a second run is proven in-process (day-one-checks.ts); another
    // version from PAYLATER_AS_INSTALLED_MEDUSA runs it twice, as the floor's workspace does.
    expectSetupQatarFromReadme((step, args) => store.medusa(step, args, { env }), { again: medusaVersion !== developmentMedusa() })
  })

  it("shows the PayLater card on the order page of the built admin, and the admin steps of README section 3 as named", async () => {
    expect(orders.link).toBeDefined()
    await expectAdminCardAndReadmeSteps({ backend, login: ADMIN, orderId: orders.link!, regionId: seeded.regionId, admin, shots: SHOTS })
  })
})
