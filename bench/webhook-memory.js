#!/usr/bin/env node
// What a storm of notifications costs the Medusa server in memory: RSS (VmRSS from /proc/<pid>/status)
// sampled every 250 ms while 10,000 verified notifications are acknowledged at full speed and then
// settled, against the same process idle (after a forced full GC) just before. Then the same 10,000
// bodies on Medusa's own POST /hooks/payment/paylater_paylater, measured the same way in the same
// run, as the reference. And what stays: RSS and heap after the storm and a forced GC.
//
//   node bench/webhook-memory.js      (BENCH_MEM_WEBHOOKS=10000, BENCH_MEM_WARMUP=1000, BENCH_MEM_CONTAINER_MIB=1024)
//
// The server runs in a 1 GB container (a cgroup memory limit, bench/lib/container.js), the size the
// issue names for a small Medusa host: Node sizes V8's heap from that limit at start, as it does in
// Docker, and the kernel kills the process if it goes over. BENCH_MEM_CONTAINER_MIB=0 runs it
// uncontained instead, where Node sizes the heap from the whole machine (4 GB on these 24 GB hosts)
// and V8 lets garbage pile up to a multiple of what is live before a full collection, on any route.
//
// The notifications are signed "success" for existing paid sessions (a PayLater retry or duplicate):
// every one runs the route's verification, queues paylater.webhook_received with the verified
// fields, and 5 s later the plugin's subscriber settles it in its turn (at most webhookConcurrency
// at a time: reads, finds it paid, records activity). The server runs with --expose-gc and
// bench/lib/gc-hook.js (full GC on SIGUSR2, figures to a file) and bench/lib/backlog-probe.js (the
// settlement slots' running / waiting / completed counts), so the benchmark knows when every
// notification of the storm has been settled (not guessed from CPU) and that none was dropped.
const fs = require("node:fs")
const path = require("node:path")
const { startStack } = require("./lib/stack")
const { openStore, payLaterCheckout } = require("./lib/checkout")
const { signedBodies } = require("./lib/webhooks")
const { round } = require("./lib/load")
const { rssMiB, waitUntilIdle, sleep, alive } = require("./lib/proc")
const { backlogProbe, readBacklog, waitForSettled } = require("./lib/backlog")
const { bounded, round: r2 } = require("./lib/stats")
const { report, machine, RESULTS_DIR } = require("./lib/report")
const { memoryContainer } = require("./lib/container")

const WEBHOOKS = bounded("BENCH_MEM_WEBHOOKS", 10_000, 100_000, 50)
const WARMUP = bounded("BENCH_MEM_WARMUP", 1000, 20_000, 50)
const SESSIONS = bounded("BENCH_MEM_SESSIONS", 10, 100, 2)
// Issue 25: peak RSS at most idle + 300 MiB during the storm; issue 7: nothing retained (< 20 MB).
const PEAK_GOAL_MIB = 300
const GROWTH_GOAL_MIB = 20
const EVENT_DELAY_MS = 5000
const CONTAINER_MIB = Number(process.env.BENCH_MEM_CONTAINER_MIB ?? 1024)

async function collect(pid, file) {
  fs.rmSync(file, { force: true })
  process.kill(pid, "SIGUSR2")
  for (let i = 0; i < 100 && !fs.existsSync(file); i++) await sleep(100)
  if (!fs.existsSync(file)) throw new Error("the server did not answer the GC request (is gc-hook preloaded?)")
  await sleep(500) // let the allocator hand pages back before reading RSS
  const figures = JSON.parse(fs.readFileSync(file, "utf8"))
  const mib = (b) => r2(b / 1048576, 1)
  return {
    vmRssMiB: r2(rssMiB(pid), 1),
    heapUsedMiB: mib(figures.heapUsed),
    heapTotalMiB: mib(figures.heapTotal),
    externalMiB: mib(figures.external),
    heapLimitMiB: mib(figures.heapSizeLimit),
  }
}

async function main() {
  const before = machine()
  const gcFile = path.join(RESULTS_DIR, "webhook-memory.gc.json")
  fs.mkdirSync(RESULTS_DIR, { recursive: true })
  process.env.BENCH_GC_REPORT = gcFile // read by gc-hook.js in the server (env is inherited)
  const probe = backlogProbe("webhook-memory")
  const container = CONTAINER_MIB > 0 ? memoryContainer("webhook-memory", CONTAINER_MIB) : { unavailable: "BENCH_MEM_CONTAINER_MIB=0" }
  if (container.unavailable) console.log(`running uncontained: ${container.unavailable}`)
  else console.log(`server in a ${CONTAINER_MIB} MiB container (cgroup v${container.version}: ${container.dir})`)
  const contained = !container.unavailable
  let stack
  try {
    stack = await startStack({
      name: "webhook-memory",
      nodeArgs: ["--expose-gc", "--require", path.join(__dirname, "lib", "gc-hook.js"), ...probe.nodeArgs],
      wrap: contained ? container.wrap : undefined,
    })
  } catch (error) {
    if (contained) container.remove()
    throw error
  }
  const pid = stack.medusaPid
  const oomKills = () => (contained ? container.oomKills() : 0)
  // Why the server can settle nothing more, if it cannot: killed by the container's limit, or gone.
  const deadReason = (route) =>
    contained && container.killed()
      ? `the server was killed by the ${CONTAINER_MIB} MiB container's memory limit during the storm on ${route}`
      : alive(pid)
        ? null
        : `the server exited during the storm on ${route}`
  try {
    const store = await openStore(stack)
    const sessionIds = []
    for (let i = 0; i < SESSIONS; i++) sessionIds.push((await payLaterCheckout(store, (id) => stack.sandbox.approveLink(id))).sessionId)
    const bodies = signedBodies(sessionIds, "success", 5000)
    // Every notification of `amount` on `route`, acknowledged and then settled (each one passes
    // through the plugin's settlement slots, on either route), with RSS sampled throughout.
    const storm = async (route, amount) => {
      await waitForSettled(probe.file, 0, { maxMs: 120_000 }) // nothing left from before
      const startCount = readBacklog(probe.file).completed
      // The peak while acknowledging and the peak after the last acknowledgement (settling only).
      const peak = { acks: rssMiB(pid), settling: 0 }
      let phase = "acks"
      let longestWait = 0
      const sampler = setInterval(() => {
        try {
          peak[phase] = Math.max(peak[phase], rssMiB(pid))
        } catch {
          // The process is gone (killed by the container's limit?): the round below says so.
        }
      }, 250)
      try {
        const res = await round({ url: stack.backend, method: "POST", path: route, bodies, connections: 10, amount })
        const dead = deadReason(route)
        if (dead) throw new Error(dead)
        if (res.ok2xx !== amount) throw new Error(`${amount - res.ok2xx} of ${amount} webhooks not answered 2xx on ${route}`)
        phase = "settling"
        const settled = await waitForSettled(probe.file, startCount + amount, {
          onSample: (s) => (longestWait = Math.max(longestWait, s.waiting)),
          stopIf: () => deadReason(route),
        })
        // Medusa's own subscribers of the core event may still be at work: wait for the CPU too.
        const idle = await waitUntilIdle(pid, { minMs: 1000, maxMs: 300_000 })
        if (!idle.settled) throw new Error(`the server did not go idle after the storm on ${route}`)
        const deadAfter = deadReason(route)
        if (deadAfter) throw new Error(deadAfter)
        return {
          acksPerS: r2(res.rps, 0),
          settledAfterLastAckS: r2(settled.waitedMs / 1000, 1),
          settled: settled.last.completed - startCount,
          longestWaitLine: longestWait,
          slots: settled.last.limit,
          peakRssMiB: r2(Math.max(peak.acks, peak.settling), 1),
          peakWhileAckingMiB: r2(peak.acks, 1),
          peakWhileSettlingMiB: r2(peak.settling, 1),
        }
      } finally {
        clearInterval(sampler)
      }
    }

    console.log(`warm-up: ${WARMUP} webhooks ...`)
    await storm("/paylater/webhooks", WARMUP)
    const idle = await collect(pid, gcFile)
    console.log(`idle after warm-up + GC: ${JSON.stringify(idle)}`)
    console.log(`storm on /paylater/webhooks: ${WEBHOOKS} webhooks at full speed, then settled ...`)
    const ours = await storm("/paylater/webhooks", WEBHOOKS)
    const after = await collect(pid, gcFile)
    console.log(`after + GC: ${JSON.stringify(after)}; during: ${JSON.stringify(ours)}`)
    console.log(`the same storm on Medusa's own /hooks/payment/paylater_paylater ...`)
    const core = await storm("/hooks/payment/paylater_paylater", WEBHOOKS)
    const afterCore = await collect(pid, gcFile)
    console.log(`after + GC: ${JSON.stringify(afterCore)}; during: ${JSON.stringify(core)}`)

    const peakOver = r2(ours.peakRssMiB - idle.vmRssMiB, 1)
    const corePeakOver = r2(core.peakRssMiB - after.vmRssMiB, 1)
    const growth = r2(after.vmRssMiB - idle.vmRssMiB, 1)
    const heapGrowth = r2(after.heapUsedMiB - idle.heapUsedMiB, 1)
    const signed = (n) => `${n >= 0 ? "+" : ""}${n}`
    const where = contained
      ? `in a ${CONTAINER_MIB} MiB container (Node's heap limit ${idle.heapLimitMiB} MiB; the kernel's own charge to it at most ${r2(container.peakMiB(), 0)} MiB, ${oomKills()} OOM kills)`
      : `uncontained (Node's heap limit ${idle.heapLimitMiB} MiB${container.unavailable === "BENCH_MEM_CONTAINER_MIB=0" ? "" : `; no container: ${container.unavailable}`})`
    const phases = (run, base) => `acking ${signed(r2(run.peakWhileAckingMiB - base, 1))}, settling ${signed(r2(run.peakWhileSettlingMiB - base, 1))}`
    report("webhook-memory", {
      goal: `peak RSS <= idle + ${PEAK_GOAL_MIB} MiB while ${WEBHOOKS} webhooks are acknowledged and settled, every one settled, no OOM kill; RSS growth < ${GROWTH_GOAL_MIB} MB after GC`,
      met: peakOver <= PEAK_GOAL_MIB && ours.settled === WEBHOOKS && growth < GROWTH_GOAL_MIB && !(contained && container.killed()),
      headline:
        `${where}: peak RSS ${ours.peakRssMiB} MiB = idle ${idle.vmRssMiB} ${signed(peakOver)} MiB (${phases(ours, idle.vmRssMiB)}); ` +
        `core /hooks/payment: ${core.peakRssMiB} MiB = idle ${after.vmRssMiB} ${signed(corePeakOver)} (${phases(core, after.vmRssMiB)}); ` +
        `${ours.settled}/${WEBHOOKS} settled ${ours.slots} at a time, ${ours.acksPerS} acks/s, last settled ${ours.settledAfterLastAckS} s after the last ack (core: ${core.acksPerS} acks/s, ${core.settledAfterLastAckS} s); ` +
        `after GC RSS ${signed(growth)} MiB, heap used ${signed(heapGrowth)} MiB`,
      details: {
        webhooks: WEBHOOKS,
        warmup: WARMUP,
        containerMiB: contained ? CONTAINER_MIB : null,
        containerPeakMiB: contained ? r2(container.peakMiB(), 1) : null,
        oomKills: oomKills(),
        idle,
        after,
        afterCore,
        growth,
        heapGrowth,
        peakOver,
        corePeakOver,
        ours,
        core,
        machineAtStart: before,
      },
    })
  } catch (error) {
    // A request that failed because the kernel killed the server says so, not only "socket hang up".
    if (contained && container.killed()) throw new Error(`the server was killed by the ${CONTAINER_MIB} MiB container's memory limit: ${error.message}`)
    throw error
  } finally {
    try {
      await stack.stop()
    } finally {
      if (contained) container.remove()
    }
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
