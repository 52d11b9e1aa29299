#!/usr/bin/env node
// Does the Medusa server keep memory per webhook? RSS (VmRSS from /proc/<pid>/status) of the server
// process before and after 10,000 verified notifications, each measured after the webhook pipeline
// has gone idle and after a forced full GC (the server runs with --expose-gc and bench/lib/gc-hook.js,
// which collects on SIGUSR2 and writes its memory figures to a file).
//
//   node bench/webhook-memory.js      (BENCH_MEM_WEBHOOKS=10000, BENCH_MEM_WARMUP=1000)
//
// The notifications are signed "success" for existing paid sessions (a PayLater retry or duplicate):
// every one runs the route's verification, queues paylater.webhook_received with the verified
// fields, and 5 s later the plugin's subscriber settles it (reads, finds it paid, records activity).
const fs = require("node:fs")
const path = require("node:path")
const { startStack } = require("./lib/stack")
const { openStore, payLaterCheckout } = require("./lib/checkout")
const { signedBodies } = require("./lib/webhooks")
const { round } = require("./lib/load")
const { rssMiB, waitUntilIdle, sleep } = require("./lib/proc")
const { bounded, round: r2 } = require("./lib/stats")
const { report, machine, RESULTS_DIR } = require("./lib/report")

const WEBHOOKS = bounded("BENCH_MEM_WEBHOOKS", 10_000, 100_000, 200)
const WARMUP = bounded("BENCH_MEM_WARMUP", 1000, 20_000, 50)
const SESSIONS = bounded("BENCH_MEM_SESSIONS", 10, 100, 2)
const GOAL_MIB = 20
const EVENT_DELAY_MS = 5000

async function collect(pid, file) {
  fs.rmSync(file, { force: true })
  process.kill(pid, "SIGUSR2")
  for (let i = 0; i < 100 && !fs.existsSync(file); i++) await sleep(100)
  if (!fs.existsSync(file)) throw new Error("the server did not answer the GC request (is gc-hook preloaded?)")
  await sleep(500) // let the allocator hand pages back before reading RSS
  const figures = JSON.parse(fs.readFileSync(file, "utf8"))
  const mib = (b) => r2(b / 1048576, 1)
  return { vmRssMiB: r2(rssMiB(pid), 1), heapUsedMiB: mib(figures.heapUsed), heapTotalMiB: mib(figures.heapTotal), externalMiB: mib(figures.external) }
}

async function main() {
  const before = machine()
  const gcFile = path.join(RESULTS_DIR, "webhook-memory.gc.json")
  fs.mkdirSync(RESULTS_DIR, { recursive: true })
  process.env.BENCH_GC_REPORT = gcFile // read by gc-hook.js in the server (env is inherited)
  const stack = await startStack({
    name: "webhook-memory",
    nodeArgs: ["--expose-gc", "--require", path.join(__dirname, "lib", "gc-hook.js")],
  })
  const pid = stack.medusaPid
  try {
    const store = await openStore(stack)
    const sessionIds = []
    for (let i = 0; i < SESSIONS; i++) sessionIds.push((await payLaterCheckout(store, (id) => stack.sandbox.approveLink(id))).sessionId)
    const bodies = signedBodies(sessionIds, "success", 5000)
    const send = async (amount) => {
      let peak = rssMiB(pid)
      const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 250)
      try {
        const res = await round({ url: stack.backend, method: "POST", path: "/paylater/webhooks", bodies, connections: 10, amount })
        if (res.ok2xx !== amount) throw new Error(`${amount - res.ok2xx} of ${amount} webhooks not answered 2xx`)
        const idle = await waitUntilIdle(pid, { minMs: EVENT_DELAY_MS + 1000, maxMs: 900_000 })
        if (!idle.settled) throw new Error("the webhook pipeline did not go idle within 15 minutes")
        return { acksPerS: r2(res.rps, 0), drainedAfterS: r2(idle.waitedMs / 1000, 1), peakRssMiB: r2(peak, 1) }
      } finally {
        clearInterval(sampler)
      }
    }

    console.log(`warm-up: ${WARMUP} webhooks ...`)
    await send(WARMUP)
    const baseline = await collect(pid, gcFile)
    console.log(`baseline after warm-up + GC: ${JSON.stringify(baseline)}`)
    console.log(`measuring: ${WEBHOOKS} webhooks (and their pipeline runs) ...`)
    const run = await send(WEBHOOKS)
    const after = await collect(pid, gcFile)
    console.log(`after ${WEBHOOKS} + GC: ${JSON.stringify(after)}; during: ${JSON.stringify(run)}`)
    const growth = r2(after.vmRssMiB - baseline.vmRssMiB, 1)
    const heapGrowth = r2(after.heapUsedMiB - baseline.heapUsedMiB, 1)
    const signed = (n) => `${n >= 0 ? "+" : ""}${n}`
    report("webhook-memory", {
      goal: `RSS growth < ${GOAL_MIB} MB over ${WEBHOOKS} webhooks (after warm-up, forced GC)`,
      met: growth < GOAL_MIB,
      headline:
        `RSS ${baseline.vmRssMiB} -> ${after.vmRssMiB} MiB (${signed(growth)}), heap used ${baseline.heapUsedMiB} -> ${after.heapUsedMiB} MiB (${signed(heapGrowth)}) ` +
        `over ${WEBHOOKS} webhooks; peak RSS while running ${run.peakRssMiB} MiB; ${run.acksPerS} acks/s, pipeline idle ${run.drainedAfterS} s after the last`,
      details: { webhooks: WEBHOOKS, warmup: WARMUP, baseline, after, growth, heapGrowth, run, machineAtStart: before },
    })
  } finally {
    await stack.stop()
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
