#!/usr/bin/env node
// `npm test`: runs every suite (unit, sandbox, browser, integration) on a machine with only Node.
// Starts an embedded PostgreSQL unless DATABASE_URL / DB_HOST name one, makes sure Debian's
// Chromium is there, runs jest once with JSON results, and ends with "N passed, N failed".
//
//   node scripts/test.js                 all suites, then every benchmark in smoke mode
//   node scripts/test.js unit            unit + sandbox + browser suites (no database)
//   node scripts/test.js integration     Medusa integration suites only
//   node scripts/test.js -- <jest args>  extra jest arguments (e.g. a path filter)
const fs = require("node:fs")
const path = require("node:path")
const { spawn } = require("node:child_process")
const { ensureDatabase } = require("./lib/database")
const { ensureChromium } = require("./lib/chromium")
const { ensureRedis } = require("./lib/redis")
const { benchSmoke } = require("./lib/bench-smoke")
const { createTemplateDatabase, TEMPLATE_ENV } = require("./lib/template-db")

const root = path.resolve(__dirname, "..")
const args = process.argv.slice(2)
const sep = args.indexOf("--")
const kind = (sep === -1 ? args : args.slice(0, sep))[0] ?? "all"
const jestExtra = sep === -1 ? [] : args.slice(sep + 1)
if (!["all", "unit", "integration"].includes(kind)) {
  console.error(`Unknown suite "${kind}": use all, unit or integration`)
  process.exit(2)
}

/** Suites at a time: the machines this runs on have 2 cores. */
const DEFAULT_WORKERS = 2

function log(line) {
  console.log(`[test] ${line}`)
}

function summarize(resultsFile) {
  const results = JSON.parse(fs.readFileSync(resultsFile, "utf8"))
  for (const suite of results.testResults) {
    if (suite.status === "failed" && suite.assertionResults.length === 0) {
      // A suite that failed to load has no assertions: count it, or a broken file reads as green.
      console.log(`[test] suite failed to run: ${path.relative(root, suite.name)}`)
    }
  }
  // Where the time goes: the slowest suites, so a run's log shows what to look at when it grows.
  const bySeconds = results.testResults
    .map((suite) => ({ name: path.relative(root, suite.name), seconds: (suite.endTime - suite.startTime) / 1000 }))
    .filter((suite) => Number.isFinite(suite.seconds))
    .sort((a, b) => b.seconds - a.seconds)
  for (const suite of bySeconds.slice(0, 12)) {
    console.log(`[test] ${suite.seconds.toFixed(1).padStart(7)} s  ${suite.name}`)
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
  console.log(`[test] jest: ${results.testResults.length} suites in ${wallSeconds.toFixed(0)} s`)
  const brokenSuites = results.testResults.filter(
    (s) => s.status === "failed" && s.assertionResults.length === 0
  ).length
  return {
    passed: results.numPassedTests,
    failed: results.numFailedTests + brokenSuites,
    skipped: results.numPendingTests + results.numTodoTests,
  }
}

async function main() {
  const env = { ...process.env, MEDUSA_DISABLE_TELEMETRY: "true", NODE_ENV: "test" }
  env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ""} --experimental-vm-modules`.trim()
  if (kind !== "all") env.TEST_TYPE = kind

  // Browser suites live in both halves (sandbox page in unit, the demo in integration).
  env.CHROMIUM_PATH = ensureChromium(log)
  log(`Chromium: ${env.CHROMIUM_PATH}`)

  let db = { stop: async () => {}, env: {} }
  let redis = { stop: async () => {} }
  let template = { drop: async () => {} }
  if (kind !== "unit") {
    db = await ensureDatabase({ dataDir: path.join(root, ".tmp", `pg-test-${process.pid}`), log })
    Object.assign(env, db.env)
    const dbEnv = { DB_HOST: env.DB_HOST, DB_PORT: env.DB_PORT, DB_USERNAME: env.DB_USERNAME, DB_PASSWORD: env.DB_PASSWORD }
    // PAYLATER_TEST_TEMPLATE=off: every suite migrates its own database (to compare, or to debug).
    if (process.env.PAYLATER_TEST_TEMPLATE !== "off") {
      template = await createTemplateDatabase({ root, dbEnv, env, log }).catch(async (error) => {
        await db.stop().catch(() => {})
        throw error
      })
      env[TEMPLATE_ENV] = template.name
    }
    // Only the several-instances suite uses Redis; integration-tests/setup.js keeps REDIS_URL away
    // from the in-process suites, which rely on Medusa's in-memory modules.
    redis = await ensureRedis(log)
    env.PAYLATER_TEST_REDIS_URL = redis.url
  }

  const resultsDir = path.join(root, ".tmp")
  fs.mkdirSync(resultsDir, { recursive: true })
  const resultsFile = path.join(resultsDir, `jest-results-${process.pid}.json`)
  const jestBin = require.resolve("jest/bin/jest")
  // Suites run in jest's worker processes, never in jest's own (a single process that ran every
  // suite kept part of each one's module registry alive and outgrew node's default heap at its
  // 62nd suite). A worker is replaced once it has grown past jest.config.js's
  // workerIdleMemoryLimit, so node's default heap is enough. PAYLATER_TEST_WORKERS: how many suites
  // at a time (each in-process Medusa app takes about 600 MB).
  const workers = Number(process.env.PAYLATER_TEST_WORKERS) || DEFAULT_WORKERS
  log(`jest: ${workers} worker${workers === 1 ? "" : "s"}`)
  const jestArgs = [
    jestBin,
    `--maxWorkers=${workers}`,
    "--forceExit",
    "--json",
    `--outputFile=${resultsFile}`,
    ...jestExtra,
  ]

  let code
  try {
    code = await new Promise((resolve) => {
      const child = spawn(process.execPath, jestArgs, { cwd: root, env, stdio: "inherit" })
      const forward = (sig) => child.kill(sig)
      process.on("SIGINT", forward)
      process.on("SIGTERM", forward)
      child.on("exit", (c, sig) => resolve(c ?? (sig ? 1 : 0)))
    })
  } finally {
    await template.drop().catch((e) => log(`template database drop failed: ${e.message}`))
    await db.stop().catch((e) => log(`PostgreSQL stop failed: ${e.message}`))
    await redis.stop().catch((e) => log(`Redis stop failed: ${e.message}`))
  }

  if (!fs.existsSync(resultsFile)) {
    console.log("0 passed, 1 failed")
    process.exit(code || 1)
  }
  const jestCounts = summarize(resultsFile)
  fs.rmSync(resultsFile, { force: true })
  // Only a whole run (`npm test`): a half or a path filter is a developer's focused run.
  const smoke =
    kind === "all" && jestExtra.length === 0
      ? await benchSmoke({ root, env: { ...process.env, MEDUSA_DISABLE_TELEMETRY: "true" }, log })
      : { passed: 0, failed: 0 }
  const passed = jestCounts.passed + smoke.passed
  const failed = jestCounts.failed + smoke.failed
  const { skipped } = jestCounts
  // Opt-in observations (e.g. PAYLATER_MULTI_INSTANCE_CONTROL=1) are skipped otherwise; the last
  // line stays exactly "N passed, N failed", which CI reads.
  if (skipped) log(`${skipped} skipped (opt-in observations)`)
  console.log(`${passed} passed, ${failed} failed`)
  process.exit(failed > 0 || code !== 0 ? 1 : 0)
}

main().catch((e) => {
  console.error(e)
  console.log("0 passed, 1 failed")
  process.exit(1)
})
