/**
 * `npm run demo`, driven end to end in real headless Chromium, started once: the demo script starts
 * PostgreSQL, Medusa with its admin dashboard, the PayLater sandbox and the storefront; then the
 * shopper's journeys on the storefront (storefront-journeys.ts), then staff's on the admin's
 * PayLater pages (admin-journeys.ts: they move the sandbox's clock, so they come after), and last
 * Ctrl-C stops everything and `ps` shows no process left behind. One demo for both: a demo's start
 * (embedded PostgreSQL, migrations, seed, four weeks of history) is a large part of each journey's time.
 */
import fs from "node:fs"
import { closeAdminDemo } from "./admin-session"
import { adminJourneys, DEMO_ADMIN } from "./admin-journeys"
import { databaseExists, startDemo, type RunningDemo } from "./demo-process"
import { leftovers } from "./leftovers"
import { storefrontJourneys } from "./storefront-journeys"

// The admin is served by Vite's dev middleware: its first page load compiles the dashboard.
jest.setTimeout(420_000)

describe("npm run demo", () => {
  let demo: RunningDemo

  beforeAll(async () => {
    demo = await startDemo({
      MEDUSA_ADMIN_DISABLED: "false",
      DEMO_ADMIN_EMAIL: DEMO_ADMIN.email,
      DEMO_ADMIN_PASSWORD: DEMO_ADMIN.password,
      PAYLATER_RTP_EXPIRY_MINUTES: "1",
      PAYLATER_TIMEOUT_MS: "2000",
      // The store's background jobs run (the test setup switches them off): the recovery job tells the
      // merchant what needs a person (Settings → PayLater's test). Every 30 seconds instead of the
      // default 2 minutes, so that test waits half a minute for the next run, not up to two.
      PAYLATER_RECONCILE_SCHEDULE: "*/30 * * * * *",
    })
    // A fresh demo (migrations, seed) on a loaded 2-core machine has taken minutes.
  }, 900_000)

  // Normally already stopped by the last test; this only cleans up after a failure.
  afterAll(() => closeAdminDemo(demo, undefined))

  describe("the shopper (storefront)", () => storefrontJourneys(() => demo))
  describe("staff (admin: the PayLater pages of the dashboard)", () => adminJourneys(() => demo))

  it("stops every process it started on Ctrl-C", async () => {
    const groups = [demo.state.demoPid, ...demo.state.processes.map((p) => p.pid)]
    expect(demo.state.processes.map((p) => p.name)).toEqual(["sandbox", "postgres", "medusa", "storefront"])
    // The machine's PostgreSQL listens on 5432, so an embedded server of the demo's is elsewhere.
    const fellBack = new URL(demo.state.databaseUrl).port === "5432"
    expect(demo.state.databaseEmbedded).toBe(!fellBack)
    const code = await demo.stop()
    expect(code).toBe(0)
    // Its database on the machine's server is dropped on stop (no next run finds this one's data).
    if (fellBack) expect(await databaseExists(demo.state.databaseUrl)).toBe(false)
    expect(demo.output()).toContain("Demo stopped.")
    expect(leftovers(groups, demo.dir)).toEqual([])
    fs.rmSync(demo.dir, { recursive: true, force: true })
  })
})
