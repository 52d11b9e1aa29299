// Boots the system under test once per benchmark, reusing the demo's pieces: its PostgreSQL
// (embedded, in a separate data dir .tmp/bench-pg, or DATABASE_URL / DB_HOST), its migration
// fingerprint and seed (demo/seed.ts -> integration-tests/helpers/seed.ts), its process supervisor,
// and a real `medusa start` with the admin disabled. The PayLater sandbox runs inside the benchmark
// process so its `requests()` record can be read directly.
//
// Everything started here is stopped by `stop()`, on Ctrl-C / SIGTERM, and (SIGKILL, synchronously)
// if the benchmark process exits any other way.
const path = require("node:path")
const { freePort } = require("../../scripts/lib/database")
const { ProcessSupervisor } = require("../../scripts/lib/demo/processes")
const { openDatabase, findSeededStore, payLaterProvidersNotOffered } = require("../../scripts/lib/demo/database")
const { createMedusa, medusaEnv } = require("../../scripts/lib/demo/medusa")
const { SANDBOX_CREDENTIALS } = require("../../scripts/lib/demo/config")
const { migrationFingerprint, isMigrated, markMigrated } = require("../../scripts/lib/demo/migrations")
const { waitForHttp } = require("../../scripts/lib/demo/wait")
const { registerTs } = require("./ts")

const root = path.resolve(__dirname, "..", "..")
const tmp = path.join(root, ".tmp")

const say = (line) => process.stdout.write(`[stack] ${line}\n`)

// The stack every startStack() of this process returns while one is shared (bench/smoke-shared.js:
// the smoke run boots one server for the benchmarks that can share it).
let shared = null

/**
 * Boots one stack and makes every later startStack() in this process return it, with a `stop()`
 * that leaves it running; the returned stack's own `stop()` ends it. For benchmarks whose options
 * are all the same server's (no container, no node flags of their own, no env the server must
 * boot with) or, in smoke mode, whose differences this stack's options already cover.
 */
async function startSharedStack(opts) {
  if (shared) throw new Error("a shared stack is already running")
  shared = await startStack(opts)
  return shared
}

/** The shared stack, or null. */
const sharedStack = () => shared

/**
 * @param {{ name: string, nodeArgs?: string[], nodeEnv?: string, sandbox?: object, env?: object,
 *           wrap?: (command: string, args: string[]) => [string, string[]] }} opts
 *   `wrap` starts the server through another command with the same pid (bench/lib/container.js).
 *   nodeEnv: Medusa's NODE_ENV (default "production": JSON request logs, no dev-only work; the demo
 *   uses development for the admin's Vite middleware, which a benchmark does not need).
 *   sandbox: extra sandbox options (e.g. `maxRecords` for a benchmark with more than 10,000 orders).
 */
async function startStack(opts) {
  if (shared) {
    // A container limits one server's memory: a benchmark that needs one cannot borrow another's.
    if (opts.wrap) throw new Error(`${opts.name} needs a server of its own (a container): it cannot run on the shared stack`)
    say(`${opts.name}: on the shared stack (${shared.backend})`)
    return { ...shared, stop: async () => {} }
  }
  registerTs()
  const { startSandbox } = require("../../src/sandbox/index.ts")
  const medusaPort = await freePort()
  // Same shape as scripts/lib/demo/config.js readConfig(), with the bench's own ports and dirs.
  const config = {
    root,
    ports: { medusa: medusaPort, storefront: 0, sandbox: 0 },
    pgPort: undefined,
    urls: {},
    // The sandbox's built-in credentials, for both sides (the sandbox's defaults are the same).
    paylater: SANDBOX_CREDENTIALS,
    paths: {
      pgData: path.resolve(process.env.BENCH_PG_DIR || path.join(tmp, "bench-pg")),
      logs: path.join(tmp, `bench-logs`, opts.name),
    },
    databaseName: process.env.BENCH_DB_NAME || "medusa_paylater_bench",
    admin: { enabled: false },
    watch: false,
  }
  const supervisor = new ProcessSupervisor({ logDir: config.paths.logs, verbose: !!process.env.BENCH_VERBOSE })
  let sandbox = null
  let stopping = null

  const stop = () => {
    if (!stopping) {
      stopping = (async () => {
        await supervisor.stopAll()
        if (sandbox) await sandbox.stop()
      })()
    }
    return stopping
  }
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.once(signal, () => {
      say(`${signal}: stopping what the benchmark started`)
      stop().finally(() => process.exit(130))
    })
  }
  process.on("exit", () => supervisor.killAllNow())

  try {
    const backend = `http://localhost:${medusaPort}`
    sandbox = await startSandbox({ ...opts.sandbox, port: 0, host: "127.0.0.1", webhookUrl: `${backend}/paylater/webhooks` })
    Object.assign(config.urls, { backend, storefront: "http://localhost:8000", sandbox: sandbox.url })

    const database = await openDatabase({ config, supervisor, onUnexpectedExit: () => {} })
    const medusa = createMedusa({ config, supervisor, databaseUrl: database.databaseUrl })
    const fingerprint = migrationFingerprint(root)
    // The benchmarks' own database (embedded, or named by BENCH_DB_NAME on DB_HOST's server) is
    // marked with the migrations it has: later stacks of a run (the smokes start three) and later
    // runs skip `medusa db:migrate` until a migration, a link, medusa-config.ts or the lockfile
    // changes. A DATABASE_URL is the user's own: migrated every time, never marked.
    const owned = database.note !== "DATABASE_URL"
    if (!owned || !(await isMigrated(database.databaseUrl, fingerprint))) {
      say("running migrations ...")
      await medusa.migrate()
      if (owned) await markMigrated(database.databaseUrl, fingerprint)
    }
    let seeded = await findSeededStore(database.databaseUrl)
    if (!seeded) {
      say("seeding (first run only) ...")
      await medusa.seed()
      seeded = await findSeededStore(database.databaseUrl)
    }

    // Like medusa.startServer(), but with our node flags (--expose-gc for the memory benchmark).
    const baseEnv = {
      ...medusaEnv(config, database.databaseUrl),
      NODE_ENV: opts.nodeEnv ?? "production",
      // One client places every checkout of a run: the store API's per-client and store-wide budgets
      // (docs/security.md) would measure themselves instead of the plugin.
      PAYLATER_START_LIMIT_PER_CLIENT: process.env.PAYLATER_START_LIMIT_PER_CLIENT || "100000",
      PAYLATER_START_LIMIT_PER_MINUTE: process.env.PAYLATER_START_LIMIT_PER_MINUTE || "100000",
      ...opts.env,
    }
    const cli = path.join(root, "node_modules", "@medusajs", "cli", "cli.js")
    // BENCH_NODE_ARGS: extra node flags for a diagnostic run, e.g. "--cpu-prof --cpu-prof-dir=.tmp/bench-prof".
    const nodeArgs = [...(opts.nodeArgs ?? []), ...(process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean)]
    /**
     * Starts (or, after it died, starts again) the server and waits for /health. `extraEnv` is added
     * for this start only (the fault campaign arms a crash point in one run of the server); another
     * `port` starts a second instance on the same database.
     */
    const startServer = async (extraEnv = {}, name = "medusa", port = medusaPort) => {
      const env = { ...baseEnv, ...extraEnv, PORT: String(port) }
      const [command, args] = (opts.wrap ?? ((c, a) => [c, a]))(process.execPath, [...nodeArgs, cli, "start", "--port", String(port)])
      const server = supervisor.start(name, command, args, { cwd: root, env })
      const t0 = Date.now()
      try {
        await waitForHttp(`http://localhost:${port}/health`, {
          ok: (s) => s === 200,
          exited: () => (server.child.exitCode === null && server.child.signalCode === null ? null : `medusa exited (see ${supervisor.logFile(name)})`),
        })
      } catch (error) {
        // The caller decides what a death before /health means (the fault campaign: a crash point
        // reached by work the server resumed at boot); a CI log shows why without the log file.
        error.server = server
        error.message += `\n--- last lines of ${name} ---\n${server.tail.slice(-15).join("\n")}\n---`
        throw error
      }
      return { server, seconds: (Date.now() - t0) / 1000, env }
    }
    const { server, seconds, env } = await startServer()
    if ((await payLaterProvidersNotOffered(database.databaseUrl, seeded.regionId)).length) await medusa.seed()
    say(`medusa up on ${backend} in ${seconds.toFixed(1)} s (pid ${server.child.pid}, NODE_ENV=${env.NODE_ENV})`)

    return {
      backend,
      sandbox,
      publishableKey: seeded.publishableKey,
      regionId: seeded.regionId,
      databaseUrl: database.databaseUrl,
      medusaPid: server.child.pid,
      logFile: supervisor.logFile("medusa"),
      server,
      startServer,
      supervisor,
      // The CLI (e.g. createAdminUser for a benchmark of admin routes).
      medusa,
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}

module.exports = { startStack, startSharedStack, sharedStack }
