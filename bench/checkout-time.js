#!/usr/bin/env node
// Wall time of a whole store-API checkout paid with PayLater (sandbox answering at once) against
// the same checkout with Medusa's built-in pp_system_default, interleaved one by one so drift and
// other engineers' load hit both alike. Median and p90 of each, and the ratio of the medians.
//
//   node bench/checkout-time.js      (BENCH_CHECKOUT_N=30 of each, after 3 warm-up pairs)
//
// PayLater: cart (+shipping) -> payment collection -> session (creates the link at PayLater) ->
// shopper approves (in-process sandbox call, not timed as the store's work but included in the
// total: ~0 ms) -> GET /paylater/return/:id (asks PayLater, completes the cart, 303 to the order).
// System: the same steps, then POST /store/carts/:id/complete.
// The sandbox's webhook still reaches /paylater/webhooks; its pipeline runs 5 s later, i.e. during
// later checkouts of both kinds (that is what a live store sees too).
const { startStack } = require("./lib/stack")
const { openStore, payLaterCheckout, systemCheckout } = require("./lib/checkout")
const { waitUntilIdle } = require("./lib/proc")
const { bounded, median, percentile, round: r2 } = require("./lib/stats")
const { report, machine } = require("./lib/report")

const N = bounded("BENCH_CHECKOUT_N", 30, 500, 2)
const WARMUP = bounded("BENCH_CHECKOUT_WARMUP", 3, 20, 1)
// Issue 25: at most 1.1x the system provider (was 1.25x): one write-ahead ledger row per session is all PayLater adds.
const GOAL = 1.1

async function timed(fn) {
  const t0 = performance.now()
  const result = await fn()
  return { ms: performance.now() - t0, ...result }
}

function describe(runs) {
  const totals = runs.map((r) => r.ms)
  const phases = {}
  for (const name of Object.keys(runs[0].phases)) phases[name] = r2(median(runs.map((r) => r.phases[name])), 1)
  return { median: r2(median(totals), 1), p90: r2(percentile(totals, 90), 1), phases }
}

async function main() {
  const before = machine()
  const stack = await startStack({ name: "checkout-time" })
  try {
    const store = await openStore(stack)
    const approve = (orderId) => stack.sandbox.approveLink(orderId)
    const kinds = {
      paylater: () => timed(() => payLaterCheckout(store, approve)),
      system: () => timed(() => systemCheckout(store)),
    }
    for (let i = 0; i < WARMUP; i++) for (const run of Object.values(kinds)) await run()
    await waitUntilIdle(stack.medusaPid, { minMs: 6000, maxMs: 60_000 })

    const runs = { paylater: [], system: [] }
    for (let i = 0; i < N; i++) {
      // Alternate which goes first, so neither always follows the other's deferred work.
      const order = i % 2 ? ["system", "paylater"] : ["paylater", "system"]
      for (const kind of order) runs[kind].push(await kinds[kind]())
      if ((i + 1) % 10 === 0) console.log(`${i + 1}/${N} pairs`)
    }
    const paylater = describe(runs.paylater)
    const system = describe(runs.system)
    const ratio = r2(paylater.median / system.median)
    console.log(`median per step, PayLater: ${JSON.stringify(paylater.phases)}`)
    console.log(`median per step, system:   ${JSON.stringify(system.phases)}`)
    report("checkout-time", {
      goal: `PayLater checkout <= ${GOAL}x pp_system_default (median)`,
      met: ratio <= GOAL,
      headline:
        `PayLater median ${paylater.median} ms (p90 ${paylater.p90}) vs system ${system.median} ms (p90 ${system.p90}) ` +
        `= ${ratio}x (p90 ratio ${r2(paylater.p90 / system.p90)}x), ${N} each interleaved`,
      details: { n: N, paylater, system, ratio, p90Ratio: r2(paylater.p90 / system.p90), machineAtStart: before },
    })
  } finally {
    await stack.stop()
  }
}

// Run by itself, or by bench/lib/smoke-shared.js on its shared stack (which calls main).
if (require.main === module)
  main().catch((error) => {
    console.error(error)
    process.exitCode = 1
  })

module.exports = { main }
