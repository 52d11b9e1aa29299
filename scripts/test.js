#!/usr/bin/env node
// `npm test`: runs every suite (unit, sandbox, browser, integration) on a machine with only Node.
// Starts an embedded PostgreSQL unless DATABASE_URL / DB_HOST name one, makes sure Debian's
// Chromium is there, runs jest once per tier with JSON results, and ends with each tier's time and
// "N passed, N failed".
//
//   node scripts/test.js                 unit tier, then integration tier, then every benchmark in smoke mode
//   node scripts/test.js unit            unit + sandbox + browser suites (no database)
//   node scripts/test.js integration     Medusa integration suites only
//   node scripts/test.js -- <jest args>  extra jest arguments (e.g. a path filter)
const fs = require("node:fs")
const path = require("node:path")
const { spawn, spawnSync } = require("node:child_process")
const { ensureDatabase } = require("./lib/database")
const { ensureChromium } = require("./lib/chromium")
const { ensureRedis } = require("./lib/redis")
const { benchSmoke } = require("./lib/bench-smoke")
const { createTemplateDatabase, TEMPLATE_ENV } = require("./lib/template-db")
const { machineSpeed } = require("./lib/machine-speed")

const root = path.resolve(__dirname, "..")
const args = process.argv.slice(2)
const sep = args.indexOf("--")
const kind = (sep === -1 ? args : args.slice(0, sep))[0] ?? "all"
const jestExtra = sep === -1 ? [] : args.slice(sep + 1)
if (!["all", "unit", "integration"].includes(kind)) {
  console.error(`Unknown suite "${kind}": use all, unit or integration`)
  process.exit(2)
}

/**
 * Suites at a time on the machines this runs on (2 cores). Suites of either tier wait on timers,
 * servers, Chromium and child processes a good part of their time (an integration suite's worker
 * alone is idle about half of it), so three keep both cores busy; the benchmark smokes beside the
 * integration tier run below its priority (startBenchSmoke) and take what is left.
 */
const DEFAULT_WORKERS = { unit: 3, integration: 3 }

function log(line) {
  console.log(`[test] ${line}`)
}

/** Each test file's CPU-seconds, by path, as scripts/lib/cpu-counting-environment.js wrote them. */
function suiteCpu(dir) {
  const byPath = new Map()
  if (!fs.existsSync(dir)) return byPath
  for (const file of fs.readdirSync(dir)) {
    try {
      const { testPath, cpuSeconds } = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"))
      byPath.set(testPath, cpuSeconds)
    } catch {
      // A figure, not a test: a file cut short leaves its suite without one.
    }
  }
  return byPath
}

/** CPU-seconds the whole machine spent busy so far (/proc/stat; null where there is none). */
function machineBusySeconds() {
  try {
    const [, ...ticks] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).map(Number)
    // user nice system idle iowait irq softirq steal: busy is user to softirq but idle and iowait
    // (steal is the hypervisor's, not work done here).
    return (ticks.slice(0, 7).reduce((a, b) => a + b, 0) - ticks[3] - ticks[4]) / 100
  } catch {
    return null
  }
}

function summarize(resultsFile, tier, cpuByPath) {
  const results = JSON.parse(fs.readFileSync(resultsFile, "utf8"))
  for (const suite of results.testResults) {
    if (suite.status === "failed" && suite.assertionResults.length === 0) {
      // A suite that failed to load has no assertions: count it, or a broken file reads as green.
      console.log(`[test] suite failed to run: ${path.relative(root, suite.name)}`)
    }
  }
  // Where the time goes: the slowest suites, so a run's log shows what to look at when it grows.
  const bySeconds = results.testResults
    .map((suite) => ({
      name: path.relative(root, suite.name),
      seconds: (suite.endTime - suite.startTime) / 1000,
      cpuSeconds: cpuByPath.has(suite.name) ? Math.round(cpuByPath.get(suite.name)) : null,
    }))
    .filter((suite) => Number.isFinite(suite.seconds))
    .sort((a, b) => b.seconds - a.seconds)
  // Wall time depends on what ran beside a suite; its CPU-seconds are what it costs a CPU-bound run.
  for (const suite of bySeconds.slice(0, 12)) {
    const cpu = suite.cpuSeconds === null ? "" : `${String(suite.cpuSeconds).padStart(5)} CPU-s  `
    console.log(`[test] ${suite.seconds.toFixed(1).padStart(7)} s  ${cpu}${suite.name}`)
  }
  const counted = bySeconds.filter((suite) => suite.cpuSeconds !== null)
  if (counted.length) {
    const total = counted.reduce((n, suite) => n + suite.cpuSeconds, 0)
    console.log(`[test] jest ${tier}: its ${counted.length} files used ${total.toLocaleString("en")} CPU-s (each file's worker and the processes it started)`)
  }
  const slowTests = results.testResults
    .flatMap((suite) =>
      suite.assertionResults.map((test) => ({ name: `${path.basename(suite.name)} › ${test.title}`, ms: test.duration ?? 0 }))
    )
    .sort((a, b) => b.ms - a.ms)
  for (const test of slowTests.slice(0, 15)) {
    console.log(`[test] ${(test.ms / 1000).toFixed(1).padStart(7)} s  ${test.name.slice(0, 150)}`)
  }
  const wallSeconds = (Date.now() - results.startTime) / 1000
  console.log(`[test] jest ${tier}: ${results.testResults.length} suites in ${wallSeconds.toFixed(0)} s`)
  const brokenSuites = results.testResults.filter(
    (s) => s.status === "failed" && s.assertionResults.length === 0
  ).length
  return {
    tests: slowTests.map((test) => ({ name: test.name, seconds: Math.round(test.ms / 100) / 10 })),
    passed: results.numPassedTests,
    failed: results.numFailedTests + brokenSuites,
    failures: failuresOf(results),
    skipped: results.numPendingTests + results.numTodoTests,
    suites: bySeconds,
  }
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g

/**
 * Each failed test (or suite that failed to run) with the first lines of its error. Printed again at
 * the end of the run: CI keeps only the tail of a long log, and a red run must say what failed there.
 */
function failuresOf(results) {
  const brief = (message) =>
    String(message ?? "")
      .replace(ANSI, "")
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean)
      .slice(0, 4)
      .join(" | ")
      .slice(0, 400)
  return results.testResults.flatMap((suite) => {
    const file = path.relative(root, suite.name)
    if (suite.status === "failed" && suite.assertionResults.length === 0) return [{ name: `${file} (did not run)`, why: brief(suite.message) }]
    return suite.assertionResults
      .filter((test) => test.status === "failed")
      .map((test) => ({ name: `${file} › ${test.fullName ?? test.title}`, why: brief((test.failureMessages ?? [])[0]) }))
  })
}

/** One line per tier, e.g. "unit 41 s (1,203 passed, 0 failed)": where a run's time went. */
function tierLine({ name, seconds, passed, failed }) {
  return `${name} ${Math.round(seconds)} s (${passed} passed, ${failed} failed)`
}

/** Starts what the integration tier needs: PostgreSQL, the migrated template database, Redis. */
async function integrationServices(env) {
  const db = await ensureDatabase({ dataDir: path.join(root, ".tmp", `pg-test-${process.pid}`), log })
  Object.assign(env, db.env)
  const dbEnv = { DB_HOST: env.DB_HOST, DB_PORT: env.DB_PORT, DB_USERNAME: env.DB_USERNAME, DB_PASSWORD: env.DB_PASSWORD }
  let template = { drop: async () => {} }
  // PAYLATER_TEST_TEMPLATE=off: every suite migrates its own database (to compare, or to debug).
  if (process.env.PAYLATER_TEST_TEMPLATE !== "off") {
    // A server this run did not start outlives it: the template is kept there for the next run.
    template = await createTemplateDatabase({ root, dbEnv, env, log, keep: !db.embedded }).catch(async (error) => {
      await db.stop().catch(() => {})
      throw error
    })
    env[TEMPLATE_ENV] = template.name
  }
  // Only the several-instances suite uses Redis; integration-tests/setup.js keeps REDIS_URL away
  // from the in-process suites, which rely on Medusa's in-memory modules.
  const redis = await ensureRedis(log)
  env.PAYLATER_TEST_REDIS_URL = redis.url
  // What the suites of this run make once and share (the plugin's tarball: installed/fresh-store.ts).
  const runDir = path.join(root, ".tmp", `run-${process.pid}`)
  fs.rmSync(runDir, { recursive: true, force: true })
  env.PAYLATER_TEST_RUN_DIR = runDir
  return {
    stop: async () => {
      fs.rmSync(runDir, { recursive: true, force: true })
      await template.drop().catch((e) => log(`template database drop failed: ${e.message}`))
      await db.stop().catch((e) => log(`PostgreSQL stop failed: ${e.message}`))
      await redis.stop().catch((e) => log(`Redis stop failed: ${e.message}`))
    },
  }
}

/** The test files jest would run in one tier with the run's jest arguments. */
function listTests(tier, env) {
  const listed = spawnSync(process.execPath, [require.resolve("jest/bin/jest"), "--listTests", ...jestExtra], {
    cwd: root,
    env: { ...env, TEST_TYPE: tier },
    encoding: "utf8",
  })
  return listed.stdout.split("\n").filter((line) => line.trim())
}

/** Runs jest on one tier (jest.config.js's project of that name); its counts and wall time. */
async function runTier(tier, baseEnv, { passWithNoTests }) {
  const started = Date.now()
  const env = { ...baseEnv, TEST_TYPE: tier }
  const services = tier === "integration" ? await integrationServices(env) : { stop: async () => {} }
  const resultsDir = path.join(root, ".tmp")
  fs.mkdirSync(resultsDir, { recursive: true })
  const resultsFile = path.join(resultsDir, `jest-results-${tier}-${process.pid}.json`)
  const cpuDir = path.join(resultsDir, `suite-cpu-${tier}-${process.pid}`)
  fs.rmSync(cpuDir, { recursive: true, force: true })
  env.PAYLATER_SUITE_CPU_DIR = cpuDir
  const busyAtStart = machineBusySeconds()
  const jestBin = require.resolve("jest/bin/jest")
  // Suites run in jest's worker processes, never in jest's own (a single process that ran every
  // suite kept part of each one's module registry alive and outgrew node's default heap at its
  // 62nd suite). A worker is replaced once it has grown past jest.config.js's
  // workerIdleMemoryLimit, so node's default heap is enough. PAYLATER_TEST_WORKERS: how many suites
  // at a time (each in-process Medusa app takes about 600 MB).
  const workers = Number(process.env.PAYLATER_TEST_WORKERS) || DEFAULT_WORKERS[tier] || 2
  log(`jest ${tier}: ${workers} worker${workers === 1 ? "" : "s"}`)
  const jestArgs = [
    jestBin,
    `--maxWorkers=${workers}`,
    "--forceExit",
    "--json",
    `--outputFile=${resultsFile}`,
    // A path filter given to `npm test` usually names files of one tier only.
    ...(passWithNoTests ? ["--passWithNoTests"] : []),
    ...jestExtra,
  ]

  let code
  try {
    code = await new Promise((resolve) => {
      const child = spawn(process.execPath, jestArgs, { cwd: root, env, stdio: "inherit" })
      const forward = (sig) => child.kill(sig)
      process.on("SIGINT", forward)
      process.on("SIGTERM", forward)
      child.on("exit", (c, sig) => {
        process.off("SIGINT", forward)
        process.off("SIGTERM", forward)
        resolve(c ?? (sig ? 1 : 0))
      })
    })
  } finally {
    await services.stop()
  }

  const seconds = (Date.now() - started) / 1000
  if (!fs.existsSync(resultsFile)) {
    fs.rmSync(cpuDir, { recursive: true, force: true })
    return { name: tier, seconds, passed: 0, failed: 1, skipped: 0, code: code || 1 }
  }
  const busy = busyAtStart === null ? null : machineBusySeconds() - busyAtStart
  if (busy !== null) log(`jest ${tier}: the machine was busy ${Math.round(busy).toLocaleString("en")} CPU-s meanwhile (/proc/stat: this tier, and whatever ran beside it)`)
  const counts = summarize(resultsFile, tier, suiteCpu(cpuDir))
  fs.rmSync(resultsFile, { force: true })
  fs.rmSync(cpuDir, { recursive: true, force: true })
  // Each suite's seconds, kept for comparing runs (e.g. what a change to the boots saved).
  fs.writeFileSync(path.join(resultsDir, `test-times-${tier}.json`), `${JSON.stringify({ seconds, suites: counts.suites, tests: counts.tests }, null, 2)}\n`)
  return { name: tier, seconds, ...counts, code }
}

/** `npm run build` once for the run, unless the caller built it (PAYLATER_PLUGIN_BUILT=1). */
function ensurePluginBuilt(env) {
  if (env.PAYLATER_PLUGIN_BUILT === "1") return log("plugin: built by the caller (PAYLATER_PLUGIN_BUILT=1)")
  const started = Date.now()
  const built = spawnSync("npm", ["run", "build"], { cwd: root, env: { ...process.env, MEDUSA_DISABLE_TELEMETRY: "true" }, encoding: "utf8" })
  if (built.status !== 0) {
    console.error(built.stdout, built.stderr)
    throw new Error("npm run build failed")
  }
  env.PAYLATER_PLUGIN_BUILT = "1"
  log(`plugin: built once for the run (${Math.round((Date.now() - started) / 1000)} s)`)
}

/** The benchmarks' smokes in the background; resolves to their tier line's counts once they end. */
function startBenchSmoke(env) {
  const started = Date.now()
  const logFile = path.join(root, ".tmp", "bench-smoke.log")
  fs.mkdirSync(path.dirname(logFile), { recursive: true })
  const out = fs.createWriteStream(logFile)
  const smokeEnv = { ...process.env, MEDUSA_DISABLE_TELEMETRY: "true", PAYLATER_PLUGIN_BUILT: env.PAYLATER_PLUGIN_BUILT ?? "" }
  return benchSmoke({ root, env: smokeEnv, log, output: out, niceness: 10 }).then((counts) => {
    out.end()
    const seconds = (Date.now() - started) / 1000
    console.log(`\n[test] ===== benchmark smokes (ran alongside the integration tier; their output, from ${path.relative(root, logFile)}):`)
    console.log(fs.readFileSync(logFile, "utf8"))
    return { name: "bench smokes (alongside)", seconds, skipped: 0, code: 0, ...counts }
  })
}

async function main() {
  const env = { ...process.env, MEDUSA_DISABLE_TELEMETRY: "true", NODE_ENV: "test" }
  env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ""} --experimental-vm-modules`.trim()

  // Browser suites live in both tiers (sandbox page in unit, the demo in integration).
  env.CHROMIUM_PATH = ensureChromium(log)
  log(`Chromium: ${env.CHROMIUM_PATH}`)

  // One jest run per tier, the fast one first: its time is its own, and a broken unit test shows
  // in a minute instead of after the integration tier.
  let tiers = kind === "all" ? ["unit", "integration"] : [kind]
  // A path filter usually names files of one tier: the other is skipped, not given a database.
  if (tiers.length > 1 && jestExtra.length > 0) tiers = tiers.filter((tier) => listTests(tier, env).length > 0)
  if (tiers.length === 0) {
    log(`no test file matches ${jestExtra.join(" ")}`)
    console.log("0 passed, 1 failed")
    process.exit(1)
  }
  // Machines differ: this run's times say little without how fast a core is (the same commit took
  // 17 minutes on one two-core machine and 37 on another whose core did half the digests).
  const speed = machineSpeed()
  log(`machine: ${require("node:os").cpus().length} cores; one core does ${speed.toLocaleString("en")} MD5+HMAC-SHA256 digests per CPU-second (scripts/lib/machine-speed.js)`)
  const runStarted = Date.now()
  // The suites that install the packed plugin, and the benchmarks, run the built plugin: built once
  // here for the whole run (CI has just built it and says so with PAYLATER_PLUGIN_BUILT=1).
  const wholeRun = kind === "all" && jestExtra.length === 0
  if (tiers.includes("integration") && (wholeRun || listTests("integration", env).some((f) => f.includes(`${path.sep}installed${path.sep}`)))) {
    ensurePluginBuilt(env)
  }
  // The integration tier's services (PostgreSQL, the migrated template database, Redis) are made
  // when the unit tier has ended, not beside it: a template's migration (a fresh machine has none
  // kept) is a Medusa boot's worth of CPU, and beside the unit tier it made that tier take 64 to
  // 67 s instead of 47 to 56 on a two-core machine. After it, the benchmarks' smokes (started first)
  // take what the migration leaves; the whole run's CPU is the same either way.
  const results = []
  let smoke = null
  for (const tier of tiers) {
    // Only a whole run (`npm test`) runs the benchmarks' smokes, alongside the integration tier and
    // below its priority: they take the cycles its suites leave while they wait (DEFAULT_WORKERS).
    // Their output is kept apart and printed after the tier, so neither log is interleaved with the other.
    if (wholeRun && tier === "integration") smoke = startBenchSmoke(env)
    results.push(
      await runTier(tier, env, { passWithNoTests: tiers.length > 1 && jestExtra.length > 0 })
    )
  }
  if (smoke) results.push(await smoke)
  const passed = results.reduce((n, r) => n + r.passed, 0)
  const failed = results.reduce((n, r) => n + r.failed, 0)
  const skipped = results.reduce((n, r) => n + r.skipped, 0)
  const total = (Date.now() - runStarted) / 1000
  log(`time by tier: ${results.map(tierLine).join("; ")}; ${Math.round(total)} s in all (wall clock; a core here does ${speed.toLocaleString("en")} digests per CPU-second)`)
  // Opt-in observations (e.g. PAYLATER_MULTI_INSTANCE_CONTROL=1) are skipped otherwise; the last
  // line stays exactly "N passed, N failed", which CI reads.
  if (skipped) log(`${skipped} skipped (opt-in observations)`)
  for (const failure of results.flatMap((r) => r.failures ?? [])) {
    log(`FAILED ${failure.name}${failure.why ? `\n[test]   ${failure.why}` : ""}`)
  }
  console.log(`${passed} passed, ${failed} failed`)
  process.exit(failed > 0 || results.some((r) => r.code !== 0) ? 1 : 0)
}

main().catch((e) => {
  console.error(e)
  console.log("0 passed, 1 failed")
  process.exit(1)
})
