#!/usr/bin/env node
// The smoke run's shared stack (bench/run-all.js --smoke): the benchmarks named on the command line
// run one after another in this process, on ONE PostgreSQL + Medusa + sandbox booted once, instead
// of each booting its own (a boot is most of a smoke benchmark's time). Each still runs its whole
// path with its smoke counts and writes its result file; run-all judges them from those files.
//
// The server is booted with what any of them needs at boot: the settlement-slots probe
// (checkout-storm), and the smoke's reconciliation schedule (reconciliation-backlog). Nothing is
// timed in a smoke run, so one benchmark's deferred work landing in the next one's is harmless.
//
//   node bench/lib/smoke-shared.js outbound-calls checkout-time ...
process.env.BENCH_SMOKE = "1"
const path = require("node:path")
const { startSharedStack } = require("./stack")
const { backlogProbe } = require("./backlog")

// The schedule reconciliation-backlog's smoke asks for (BENCH_RECON_SCHEDULE wins there too).
const SMOKE_RECONCILE_SCHEDULE = process.env.BENCH_RECON_SCHEDULE || "*/5 * * * * *"
// One benchmark that hangs fails alone (the slowest takes about a minute on a loaded machine).
const LIMIT_MS = 5 * 60_000

const say = (line) => process.stdout.write(`[smoke-shared] ${line}\n`)

function withLimit(promise, name) {
  let timer
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name} took over ${LIMIT_MS / 60_000} minutes`)), LIMIT_MS)
  })
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer))
}

async function main() {
  const names = process.argv.slice(2)
  const probe = backlogProbe("smoke-shared")
  process.env.PAYLATER_RECONCILE_SCHEDULE = SMOKE_RECONCILE_SCHEDULE
  const stack = await startSharedStack({ name: "smoke-shared", nodeArgs: probe.nodeArgs })
  stack.backlogFile = probe.file
  const webhookUrl = `${stack.backend}/paylater/webhooks`
  let failed = 0
  try {
    for (const name of names) {
      console.log(`\n===== ${name} (smoke, shared stack)`)
      // What one benchmark changed on the sandbox is not the next one's starting point.
      stack.sandbox.clearFaults()
      stack.sandbox.setWebhookUrl(webhookUrl)
      const started = Date.now()
      try {
        // Loaded here, not above: each reads its smoke knobs when loaded.
        const { main: run } = require(path.join(__dirname, "..", `${name}.js`))
        await withLimit(Promise.resolve().then(run), name)
        say(`${name}: ran in ${Math.round((Date.now() - started) / 1000)} s`)
      } catch (error) {
        failed++
        say(`${name}: FAILED after ${Math.round((Date.now() - started) / 1000)} s: ${error.stack ?? error.message}`)
      }
    }
  } finally {
    await stack.stop()
  }
  process.exitCode = failed ? 1 : 0
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
