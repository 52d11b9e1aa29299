/**
 * As installed in a workspace shaped like Medusa's DTC starter (issue 26): a pnpm workspace with
 * apps/backend (Medusa 2.18.0, React 18 for its admin) and apps/storefront (React 19). The backend
 * depends on the plugin's tarball (README section 1), and the storefront kit's tarball is added with
 * `pnpm add` as docs/storefront-dtc-starter.md section 1 says. Then:
 *
 * - the workspace holds one copy of the plugin, and the storefront no Medusa backend packages and
 *   no peer warnings of ours; the kit loads in the React 19 app (CommonJS, ESM, a component rendered);
 * - a payment link and a Request to Pay through the backend's store API, each into one order;
 * - the old guide's mistake (the plugin added to the storefront too) makes pnpm keep a second copy
 *   of the plugin: the backend then loads the provider from the storefront's copy and the plugin's
 *   module from its own, and both methods still check out (the ledger port and the request
 *   context are process-wide, src/process-wide/process-slot.ts).
 *
 * The backend runs `medusa start` from its folder (no `medusa build`: the build and the admin are
 * as-installed.spec.ts's subject, so the admin is disabled here).
 */
import { execFileSync } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import Medusa from "@medusajs/js-sdk"
import { decideOnLink } from "../http/paylater-link/shopper"
import { buildAndPack, freePorts, REPO_ROOT, type Running, type StepTiming } from "./fresh-store"
import { createWorkspace, peerIssuesByProject, STARTER_MEDUSA, type Workspace } from "./pnpm-workspace"
import { envLines, readmeSnippet } from "./readme-snippets"
import { createDatabase, dropDatabase, writeSeedScript } from "./store-database"
import { readyCart as readyCartOf } from "./ready-cart"
import { writeGuideFiles } from "./guide-files"
import { createRequire } from "node:module"

jest.setTimeout(20 * 60_000)

type Json = Record<string, any>

const README = path.join(REPO_ROOT, "README.md")
const GUIDE = path.join(REPO_ROOT, "docs", "storefront-dtc-starter.md")
const KIT_DIR = path.join(REPO_ROOT, "packages", "storefront-kit")
const PROVIDER_RESOLVE = `resolve: "medusa-payment-paylater/providers/paylater"`
const ADMIN = { email: "owner@starter-shaped.qa", password: "starter-shaped-password" }
/** The README's medusa-config.ts with the admin off (see the file comment) and the provider from `providerResolve`. */
function medusaConfig(providerResolve?: string): string {
  let config = readmeSnippet(README, "medusa-config.ts")
  expect(config).toContain(PROVIDER_RESOLVE)
  config = config.replace("  projectConfig: {", "  admin: { disable: true },\n  projectConfig: {")
  if (providerResolve) config = config.replace(PROVIDER_RESOLVE, `resolve: ${JSON.stringify(providerResolve)}`)
  return config
}

describe(`as installed in a pnpm workspace shaped like Medusa's DTC starter (Medusa ${STARTER_MEDUSA}, React 19 storefront)`, () => {
  const timings: StepTiming[] = []
  const databaseName = `paylater_pnpm_workspace_${process.pid}`
  let ws: Workspace
  let pluginTarball: string
  let kitAdd: string
  let server: Running | undefined
  let sandbox: Running
  let backend: string
  let sandboxUrl: string
  let medusaPort: number
  let seeded: Json
  let sdk: Medusa
  let adminToken: string
  let runtimeEnv: NodeJS.ProcessEnv

  async function startBackend(): Promise<void> {
    const started = Date.now()
    server = ws.backend.start("medusa start", path.join(ws.backend.dir, "node_modules", ".bin", "medusa"), ["start", "--port", String(medusaPort)], {
      env: runtimeEnv,
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

  async function payByLink(): Promise<void> {
    const cart = await readyCart()
    const { payment_collection } = await sdk.store.payment.initiatePaymentSession(cart as any, { provider_id: "pp_paylater_paylater" })
    const session = payment_collection.payment_sessions!.find((s) => s.provider_id === "pp_paylater_paylater")!
    expect(session.data).toMatchObject({ amount: "360.00", currency: "QAR" })
    const back = await decideOnLink(String(session.data.payment_link_url), "approve")
    const returned = await fetch(back, { redirect: "manual" })
    expect(returned.status).toBe(303)
    const landing = new URL(returned.headers.get("location")!)
    expect(landing.pathname).toMatch(/^\/order\/confirmed\/order_/)
    await expectOneCapturedOrder(decodeURIComponent(landing.pathname.split("/").pop()!), "pp_paylater_paylater")
  }

  async function payByRequestToPay(): Promise<void> {
    const cart = await readyCart()
    const { payment_collection } = await sdk.store.payment.initiatePaymentSession(cart as any, {
      provider_id: "pp_paylater-rtp_paylater",
      data: { mobile_number: "5111 8021" },
    })
    const session = payment_collection.payment_sessions!.find((s) => s.provider_id === "pp_paylater-rtp_paylater")!
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
    pluginTarball = buildAndPack(path.join(REPO_ROOT, ".tmp", "pnpm-workspace-pack"), timings).tarball
    let started = Date.now()
    const kitPack = execFileSync("npm", ["pack", "--json", "--pack-destination", path.join(REPO_ROOT, ".tmp", "pnpm-workspace-pack")], {
      cwd: KIT_DIR,
      encoding: "utf8",
    })
    const kitTarball = path.join(REPO_ROOT, ".tmp", "pnpm-workspace-pack", JSON.parse(kitPack.slice(kitPack.indexOf("[")))[0].filename)
    timings.push({ step: "npm pack (storefront kit)", ms: Date.now() - started })

    const [medusaSide, sandboxPort] = await freePorts(2)
    medusaPort = medusaSide
    backend = `http://localhost:${medusaPort}`
    sandboxUrl = `http://127.0.0.1:${sandboxPort}`
    const env = {
      DATABASE_URL: await createDatabase(databaseName),
      STORE_CORS: "http://localhost:8000",
      ADMIN_CORS: backend,
      AUTH_CORS: `http://localhost:8000,${backend}`,
      JWT_SECRET: "starter-shaped-jwt",
      COOKIE_SECRET: "starter-shaped-cookie",
      ...Object.fromEntries(
        envLines(readmeSnippet(README, ".env")).map(([key, value]) => [
          key,
          value.replace("http://127.0.0.1:4010", sandboxUrl).replace("http://localhost:9000", backend),
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
    ws.pnpm("pnpm install (workspace)", null, ["install"])
    kitAdd = ws.pnpm("pnpm add medusa-payment-paylater-storefront (apps/storefront)", ws.storefront, ["add", kitTarball])

    ws.backend.medusa("medusa db:migrate", ["db:migrate"])
    const seedOut = path.join(ws.backend.dir, "seeded.json")
    writeSeedScript(ws.backend.dir, seedOut, "@medusajs/medusa/core-flows")
    ws.backend.medusa("medusa exec seed", ["exec", "./src/scripts/seed.ts"])
    seeded = JSON.parse(fs.readFileSync(seedOut, "utf8"))
    ws.backend.medusa("medusa user", ["user", "-e", ADMIN.email, "-p", ADMIN.password])

    sandbox = ws.backend.start("sandbox", path.join(ws.backend.dir, "node_modules", ".bin", "paylater-sandbox"), [
      "--port",
      String(sandboxPort),
      "--webhook-url",
      `${backend}/paylater/webhooks`,
    ])
    await sandbox.waitFor(/Press Ctrl\+C to stop/, 30_000)
    runtimeEnv = { ...ws.backend.env, ...env, NODE_ENV: "development" }
    await startBackend()
    sdk = new Medusa({ baseUrl: backend, publishableKey: seeded.publishableKey })
  })

  afterAll(async () => {
    await stopBackend()
    await ws?.backend.stopAll()
    console.log(
      `pnpm-workspace timings: ${timings.map((t) => `${t.step} ${(t.ms / 1000).toFixed(1)} s`).join(", ")}; total ${(
        timings.reduce((sum, t) => sum + t.ms, 0) / 1000
      ).toFixed(1)} s`
    )
    if (ws && !process.env.KEEP_FRESH_STORE) {
      fs.rmSync(ws.root, { recursive: true, force: true })
      await dropDatabase(databaseName)
    }
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

  it("the guide's code blocks compile as pasted in the React 19 storefront, against the installed kit (issue 34)", () => {
    const tsconfig = writeGuideFiles(GUIDE, ws.storefront.dir)
    ws.storefront.run("tsc (the guide's files)", path.join(ws.storefront.dir, "node_modules", ".bin", "tsc"), ["-p", tsconfig])
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
    await payByLink()
  })

  it("takes a Request to Pay through the backend's store API into one captured order", async () => {
    await payByRequestToPay()
  })

  it("still works when pnpm keeps a second copy of the plugin and Medusa loads the provider from it", async () => {
    // The old guide's step: the plugin added to the storefront too. pnpm resolves its peers (React
    // 19 there, 18 in the backend) into a second copy, and the hidden hoisted link may point at
    // either; here the provider is loaded from the storefront's copy on purpose, the plugin (its
    // module, routes and middleware) from the backend's.
    ws.pnpm("pnpm add medusa-payment-paylater (apps/storefront, the old guide's mistake)", ws.storefront, ["add", pluginTarball])
    const backendCopy = fs.realpathSync(path.join(ws.backend.dir, "node_modules", "medusa-payment-paylater"))
    const storefrontCopy = fs.realpathSync(path.join(ws.storefront.dir, "node_modules", "medusa-payment-paylater"))
    expect(ws.copiesOf("medusa-payment-paylater")).toHaveLength(2)
    expect(storefrontCopy).not.toBe(backendCopy)

    await stopBackend()
    fs.writeFileSync(
      path.join(ws.backend.dir, "medusa-config.ts"),
      medusaConfig(path.join(storefrontCopy, ".medusa", "server", "src", "providers", "paylater"))
    )
    await startBackend()
    await payByLink()
    await payByRequestToPay()
  })
})
