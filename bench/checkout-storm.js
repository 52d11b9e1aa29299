#!/usr/bin/env node
// Does a storm of PayLater notifications slow the store's checkouts? PayLater link checkouts over
// the store API (as bench/checkout-time.js: cart, payment collection, session with the sandbox's
// link, shopper approves, GET /paylater/return/:id completes the cart), by BENCH_STORM_CLIENTS
// shoppers at once, first on a quiet server, then while 10,000 verified notifications are
// acknowledged at full speed and settled, then quiet again. p95 of the storm's checkouts against
// the p95 of the quiet ones of the same run.
//
//   node bench/checkout-storm.js   (BENCH_STORM_WEBHOOKS=10000, BENCH_STORM_QUIET=20 per shopper
//                                   before and after, BENCH_STORM_CLIENTS=2)
//
// The notifications are signed "success" for existing paid sessions (a PayLater retry burst after
// an outage). The storm's checkouts are split by when they ran: during the acknowledgements (the
// route's own cost at full speed on the same event loop) and after the last acknowledgement while
// the backlog was still being settled (the deferred settlement's cost, what the goal is about).
// bench/lib/backlog-probe.js in the server says when every notification has been settled.
// BENCH_STORM_CONTAINER_MIB=1024 runs the server in a memory-limited container (bench/lib/container.js),
// where Node's smaller heap means more frequent garbage collection on the same two cores.
const { startStack } = require("./lib/stack")
const { openStore, payLaterCheckout } = require("./lib/checkout")
const { signedBodies } = require("./lib/webhooks")
const { round } = require("./lib/load")
const { waitUntilIdle, alive } = require("./lib/proc")
const { backlogProbe, readBacklog, waitForSettled } = require("./lib/backlog")
const { bounded, median, percentile, round: r2 } = require("./lib/stats")
const { report, machine } = require("./lib/report")
const { memoryContainer } = require("./lib/container")

const WEBHOOKS = bounded("BENCH_STORM_WEBHOOKS", 10_000, 100_000, 50)
const QUIET = bounded("BENCH_STORM_QUIET", 20, 200, 1)
const CLIENTS = bounded("BENCH_STORM_CLIENTS", 2, 8, 1)
const SESSIONS = bounded("BENCH_STORM_SESSIONS", 10, 100, 2)
const WARMUP = bounded("BENCH_STORM_WARMUP", 2, 20, 1)
// Issue 25: checkout p95 during the storm at most 2x the quiet p95 of the same run.
const GOAL = 2
const CONTAINER_MIB = Number(process.env.BENCH_STORM_CONTAINER_MIB ?? 0)

function describe(runs) {
  const totals = runs.map((r) => r.ms)
  return { n: runs.length, median: r2(median(totals), 1), p95: r2(percentile(totals, 95), 1), max: r2(Math.max(...totals), 1) }
}

async function main() {
  const before = machine()
  const probe = backlogProbe("checkout-storm")
  const container = CONTAINER_MIB > 0 ? memoryContainer("checkout-storm", CONTAINER_MIB) : null
  if (container?.unavailable) throw new Error(`BENCH_STORM_CONTAINER_MIB=${CONTAINER_MIB}: ${container.unavailable}`)
  let stack
  try {
    stack = await startStack({ name: "checkout-storm", nodeArgs: probe.nodeArgs, wrap: container?.wrap })
  } catch (error) {
    container?.remove()
    throw error
  }
  try {
    const store = await openStore(stack)
    const approve = (orderId) => stack.sandbox.approveLink(orderId)
    const checkout = async () => {
      const t0 = performance.now()
      await payLaterCheckout(store, approve)
      const t1 = performance.now()
      return { ms: t1 - t0, start: t0, end: t1 }
    }
    // `CLIENTS` shoppers, each checking out one after another while `more()` (asked before each) says so.
    const shoppers = async (more) => {
      const runs = []
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (more()) runs.push(await checkout())
        })
      )
      return runs
    }
    const quietRound = async () => {
      let started = 0
      const runs = await shoppers(() => started++ < QUIET * CLIENTS)
      // Their own webhooks (the sandbox notifies each payment) are settled before anything else.
      await waitUntilIdle(stack.medusaPid, { minMs: 6000, maxMs: 120_000 })
      return runs
    }

    const sessionIds = []
    for (let i = 0; i < SESSIONS; i++) sessionIds.push((await payLaterCheckout(store, approve)).sessionId)
    for (let i = 0; i < WARMUP; i++) await checkout()
    await waitUntilIdle(stack.medusaPid, { minMs: 6000, maxMs: 120_000 })

    console.log(`quiet: ${QUIET} checkouts per shopper, ${CLIENTS} shoppers ...`)
    const quietBefore = await quietRound()

    console.log(`storm: ${WEBHOOKS} webhooks at full speed while the shoppers keep checking out until every one is settled ...`)
    const startCount = readBacklog(probe.file)?.completed ?? 0
    const t0 = performance.now()
    let acksEnd = Infinity
    let drained = false
    let longestWait = 0
    const acks = round({ url: stack.backend, method: "POST", path: "/paylater/webhooks", bodies: signedBodies(sessionIds, "success", 5000), connections: 10, amount: WEBHOOKS }).then(
      (res) => {
        acksEnd = performance.now()
        return res
      }
    )
    const settled = acks.then(async (res) => {
      if (res.ok2xx !== WEBHOOKS) throw new Error(`${WEBHOOKS - res.ok2xx} of ${WEBHOOKS} webhooks not answered 2xx`)
      // At least the storm; the shoppers' own notifications join the same line.
      const done = await waitForSettled(probe.file, startCount + WEBHOOKS, {
        onSample: (s) => (longestWait = Math.max(longestWait, s.waiting)),
        stopIf: () =>
          container?.killed() ? `the server was killed by the ${CONTAINER_MIB} MiB container's memory limit` : alive(stack.medusaPid) ? null : "the server exited",
      })
      drained = true
      return done
    })
    settled.catch(() => (drained = true))
    const stormRuns = await shoppers(() => !drained)
    const [ackResult, drain] = await Promise.all([acks, settled])
    const drainedAt = performance.now()
    await waitUntilIdle(stack.medusaPid, { minMs: 6000, maxMs: 120_000 })

    console.log(`quiet again: ${QUIET} checkouts per shopper ...`)
    const quietAfter = await quietRound()

    const quiet = describe([...quietBefore, ...quietAfter])
    // After the last acknowledgement and before the backlog was gone: only the settlement beside them.
    const settling = stormRuns.filter((r) => r.start >= acksEnd && r.end <= drainedAt)
    const duringAcks = stormRuns.filter((r) => r.start < acksEnd)
    const storm = describe(stormRuns)
    const settlingStats = settling.length ? describe(settling) : null
    const acksStats = duringAcks.length ? describe(duringAcks) : null
    const ratio = settlingStats ? r2(settlingStats.p95 / quiet.p95) : null
    const wholeRatio = r2(storm.p95 / quiet.p95)
    const stormS = r2((drainedAt - t0) / 1000, 1)
    const fmt = (s) => (s ? `p95 ${s.p95} ms (median ${s.median}, n ${s.n})` : "none")
    report("checkout-storm", {
      goal: `PayLater checkout p95 while ${WEBHOOKS} webhooks are settled <= ${GOAL}x the quiet p95 of the same run`,
      met: ratio !== null && ratio <= GOAL && settling.length >= 5 && !container?.killed(),
      headline:
        `quiet ${fmt(quiet)}; while settling ${fmt(settlingStats)}${ratio === null ? "" : ` = ${ratio}x`}; ` +
        `during the acknowledgements ${fmt(acksStats)}; whole storm ${fmt(storm)} = ${wholeRatio}x; ` +
        `${container ? `in a ${CONTAINER_MIB} MiB container (${container.oomKills()} OOM kills): ` : ""}${WEBHOOKS} webhooks at ${r2(ackResult.rps, 0)} acks/s, settled ${drain.last.limit} at a time (longest wait line ${longestWait}), all settled ${stormS} s after the storm began; ${CLIENTS} shoppers`,
      details: {
        webhooks: WEBHOOKS,
        clients: CLIENTS,
        containerMiB: container ? CONTAINER_MIB : null,
        oomKills: container ? container.oomKills() : null,
        quiet,
        quietBefore: describe(quietBefore),
        quietAfter: describe(quietAfter),
        settling: settlingStats,
        duringAcks: acksStats,
        storm,
        ratio,
        wholeRatio,
        acksPerS: r2(ackResult.rps, 0),
        acksS: r2((acksEnd - t0) / 1000, 1),
        stormS,
        slots: drain.last.limit,
        longestWait,
        machineAtStart: before,
      },
    })
  } catch (error) {
    // A request that failed because the kernel killed the server says so, not only "socket hang up".
    if (container?.killed()) throw new Error(`the server was killed by the ${CONTAINER_MIB} MiB container's memory limit: ${error.message}`)
    throw error
  } finally {
    try {
      await stack.stop()
    } finally {
      container?.remove()
    }
  }
}

// Run by itself, or by bench/lib/smoke-shared.js on its shared stack (which calls main).
if (require.main === module)
  main().catch((error) => {
    console.error(error)
    process.exitCode = 1
  })

module.exports = { main }
