#!/usr/bin/env node
// `npm run demo`: a PayLater-enabled Medusa store, its admin, the PayLater sandbox and a demo
// storefront, started with one command on a machine that has only Node (and `npm install` done).
//
//   npm run demo                   start and keep running until Ctrl-C
//   npm run demo -- --check        start, check every service answers, stop (also DEMO_EXIT_AFTER_READY=1)
//   npm run demo -- --verbose      also stream every service's output (also DEMO_VERBOSE=1)
//   npm run demo -- --watch        run Medusa with `medusa develop` (restarts on source changes)
//
// Environment: MEDUSA_PORT (9000), STOREFRONT_PORT (8000), PAYLATER_SANDBOX_PORT (4010),
// DATABASE_URL or DB_HOST/DB_PORT/DB_USERNAME/DB_PASSWORD (default: embedded PostgreSQL kept under
// .tmp/demo-pg, so a second run reuses its data), DEMO_PG_DIR, DEMO_STATE_FILE, DEMO_LOG_DIR,
// DEMO_ADMIN_EMAIL / DEMO_ADMIN_PASSWORD, MEDUSA_ADMIN_DISABLED=true (skip the admin: faster),
// DEMO_MIGRATE=always (run migrations even when nothing changed since the last run).
const fs = require("node:fs")
const path = require("node:path")
const { readConfig } = require("./lib/demo/config")
const { createSteps } = require("./lib/demo/steps")
const { assertPortsFree, PortTakenError } = require("./lib/demo/ports")
const { ProcessSupervisor } = require("./lib/demo/processes")
const { openDatabase, findSeededStore, payLaterProvidersNotOffered, adminUserExists } = require("./lib/demo/database")
const { createMedusa } = require("./lib/demo/medusa")
const { migrationFingerprint, isMigrated, markMigrated } = require("./lib/demo/migrations")
const { startSandbox } = require("./lib/demo/sandbox")
const { startStorefront } = require("./lib/demo/storefront")
const { waitForHttp } = require("./lib/demo/wait")
const { banner } = require("./lib/demo/banner")

let config
try {
  config = readConfig()
} catch (error) {
  console.error(`Cannot start the demo: ${error.message}`)
  process.exit(2)
}
const say = (line) => process.stdout.write(`${line}\n`)
const steps = createSteps(config.admin.enabled ? 9 : 8, say)
const supervisor = new ProcessSupervisor({ logDir: config.paths.logs, verbose: config.verbose })
let database = null
let shuttingDown = null

function writeState(state) {
  fs.mkdirSync(path.dirname(config.paths.state), { recursive: true })
  fs.writeFileSync(config.paths.state, `${JSON.stringify(state, null, 2)}\n`)
}

/** Stops everything this run started, newest first; safe to call more than once. */
function shutdown(code, reason) {
  if (!shuttingDown) {
    shuttingDown = (async () => {
      if (reason) say(`\n${reason}`)
      if (supervisor.children.size > 0 || database) {
        say("Stopping the demo ...")
        await supervisor.stopAll()
        if (database) await database.stop().catch((e) => say(`PostgreSQL did not stop cleanly: ${e.message}`))
        say("Demo stopped.")
      }
      process.exit(code)
    })()
  }
  return shuttingDown
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    // A second Ctrl-C while stopping means "now": kill the process groups outright.
    if (shuttingDown) {
      supervisor.killAllNow()
      process.exit(130)
    }
    shutdown(0, `${signal} received.`)
  })
}
// If this process dies of an error, its children must not outlive it.
process.on("exit", () => supervisor.killAllNow())

/** A service that stops by itself after it started takes the whole demo down, loudly. */
const diedWhileRunning = (name) => ({ code, signal }) => {
  if (shuttingDown) return
  const how = signal ? `was killed by ${signal}` : `exited with code ${code}`
  shutdown(1, `${name} ${how}. Its last output:\n${supervisor.tail(name)}\nFull log: ${supervisor.logFile(name)}`)
}

/** While waiting for a service to answer, notice at once if its process has already died. */
const exitedReason = (name) => () => (supervisor.children.has(name) && supervisor.children.get(name).child.exitCode === null ? null : `${name} exited (see ${supervisor.logFile(name)})`)

async function main() {
  say(`PayLater demo: starting (logs in ${path.relative(process.cwd(), config.paths.logs) || "."})`)

  await steps.step("Checking ports", async () => {
    await assertPortsFree([
      { name: "Medusa", port: config.ports.medusa, envVar: "MEDUSA_PORT" },
      { name: "storefront", port: config.ports.storefront, envVar: "STOREFRONT_PORT" },
      { name: "PayLater sandbox", port: config.ports.sandbox, envVar: "PAYLATER_SANDBOX_PORT" },
    ])
    return { note: `${config.ports.medusa}, ${config.ports.storefront}, ${config.ports.sandbox} free` }
  })

  // The sandbox needs nothing else, so it starts first and gets ready while the database works.
  const sandboxReady = steps.step("Starting the PayLater sandbox", async () => {
    startSandbox({ config, supervisor, onUnexpectedExit: diedWhileRunning("sandbox") })
    await waitForHttp(`${config.urls.sandbox}/`, { timeoutMs: 60_000, exited: exitedReason("sandbox") })
    return { note: config.urls.sandbox }
  })
  // Keep the output ordered: the sandbox line completes before the database step begins.
  await sandboxReady

  database = await steps.step("Starting PostgreSQL", () =>
    openDatabase({ config, supervisor, onUnexpectedExit: diedWhileRunning("postgres") })
  )
  const medusa = createMedusa({ config, supervisor, databaseUrl: database.databaseUrl })

  await steps.step("Running database migrations", async () => {
    const fingerprint = migrationFingerprint(config.root)
    if (database.embedded && !config.forceMigrate && (await isMigrated(database.databaseUrl, fingerprint))) {
      return { note: "up to date: skipped; DEMO_MIGRATE=always runs them" }
    }
    await medusa.migrate()
    if (database.embedded) await markMigrated(database.databaseUrl, fingerprint)
    return { note: "applied" }
  })

  const seeded = await steps.step("Loading the demo data", async () => {
    const existing = await findSeededStore(database.databaseUrl)
    if (existing) return { ...existing, note: "already seeded" }
    await medusa.seed()
    const fresh = await findSeededStore(database.databaseUrl)
    if (!fresh) throw new Error("the seed script finished but no demo publishable key was found")
    return { ...fresh, note: "seeded" }
  })

  if (config.admin.enabled) {
    await steps.step("Creating the admin user", async () => {
      if (await adminUserExists(database.databaseUrl, config.admin.email)) return { note: `${config.admin.email} exists` }
      await medusa.createAdminUser(config.admin)
      return { note: config.admin.email }
    })
  }

  await steps.step(`Starting Medusa${config.admin.enabled ? " with the admin dashboard" : ""}`, async () => {
    medusa.startServer(diedWhileRunning("medusa"))
    await waitForHttp(`${config.urls.backend}/health`, { ok: (s) => s === 200, exited: exitedReason("medusa") })
    // Providers register when Medusa boots; one added since the data was seeded is offered now.
    const notOffered = await payLaterProvidersNotOffered(database.databaseUrl, seeded.regionId)
    if (notOffered.length) {
      await medusa.seed()
      return { note: `${config.urls.backend}; Qatar now also offers ${notOffered.join(", ")}` }
    }
    return { note: config.urls.backend }
  })

  await steps.step("Starting the storefront", async () => {
    startStorefront({ config, seeded, supervisor, onUnexpectedExit: diedWhileRunning("storefront") })
    await waitForHttp(`${config.urls.storefront}/`, { ok: (s) => s === 200, timeoutMs: 60_000, exited: exitedReason("storefront") })
    return { note: config.urls.storefront }
  })

  await steps.step("Checking the store answers", async () => {
    // A real store call with the publishable key: proves migrations, seed, key and CORS origin.
    const res = await fetch(`${config.urls.backend}/store/products?limit=1`, {
      headers: { "x-publishable-api-key": seeded.publishableKey, origin: config.urls.storefront },
    })
    if (res.status !== 200) throw new Error(`GET /store/products answered ${res.status}: ${await res.text()}`)
    if (config.admin.enabled) {
      await waitForHttp(`${config.urls.admin}/`, { ok: (s) => s === 200, exited: exitedReason("medusa") })
    }
    return { note: config.admin.enabled ? "store API and admin answer" : "store API answers" }
  })

  writeState({
    startedAt: new Date().toISOString(),
    demoPid: process.pid,
    urls: config.urls,
    ports: config.ports,
    admin: config.admin,
    publishableKey: seeded.publishableKey,
    regionId: seeded.regionId,
    databaseEmbedded: database.embedded,
    // Where the demo's data is (the embedded server, or the machine's own it fell back to).
    databaseUrl: database.databaseUrl,
    processes: supervisor.pids(),
  })
  say(banner({ config, seeded, seconds: Math.round(steps.elapsed() / 100) / 10 }))

  if (config.exitAfterReady) await shutdown(0, "--check: everything answered.")
}

main().catch((error) => {
  const message = error instanceof PortTakenError ? error.message : `Demo failed: ${error.stack || error.message}`
  shutdown(1, message)
})
