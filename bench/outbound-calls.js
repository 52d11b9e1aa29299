#!/usr/bin/env node
// Calls Medusa makes to PayLater per paid payment-link checkout, token fetches included, counted by
// the sandbox's own request record. Each checkout: cart -> payment session -> the shopper approves
// on the sandbox's hosted page (over HTTP) -> our return route -> order. The sandbox's webhook goes
// to our /paylater/webhooks, so the webhook pipeline's calls (5 s later) are counted too.
//
//   node bench/outbound-calls.js      (BENCH_CHECKOUTS=100)
const { startStack } = require("./lib/stack")
const { openStore, payLaterCheckout } = require("./lib/checkout")
const { waitUntilIdle } = require("./lib/proc")
const { bounded, round: r2 } = require("./lib/stats")
const { report, machine } = require("./lib/report")
const { registerTs } = require("./lib/ts")

registerTs()
const { decideOnLink } = require("../integration-tests/http/paylater-link/shopper.ts")
const { SANDBOX_DEFAULTS } = require("../src/sandbox/index.ts")
const { refreshMoment } = require("../src/lib/paylater/token.ts")

const CHECKOUTS = bounded("BENCH_CHECKOUTS", 100, 1000, 2)
const MERCHANT_API = new Set(["token", "link", "rtp", "status", "refund", "shopper"])
const EVENT_DELAY_MS = 5000

async function main() {
  const before = machine()
  const stack = await startStack({ name: "outbound-calls" })
  try {
    const store = await openStore(stack)
    // Count from a clean record: only what these checkouts cause.
    stack.sandbox.reset()
    stack.sandbox.setWebhookUrl(`${stack.backend}/paylater/webhooks`)
    const started = Date.now()
    const checkouts = []
    for (let i = 0; i < CHECKOUTS; i++) {
      checkouts.push(await payLaterCheckout(store, (_orderId, link) => decideOnLink(link, "approve")))
      if ((i + 1) % 25 === 0) console.log(`${i + 1}/${CHECKOUTS} checkouts placed`)
    }
    const checkoutsMs = Date.now() - started
    // The last webhooks' delayed events (5 s) and their pipeline runs must finish before counting.
    const idle = await waitUntilIdle(stack.medusaPid, { minMs: EVENT_DELAY_MS + 1500, maxMs: 120_000 })
    const deliveries = stack.sandbox.deliveries()
    const calls = stack.sandbox.requests().filter((r) => MERCHANT_API.has(r.endpoint))

    const inReturnRoute = (r) => checkouts.some((c) => r.time >= c.returnWindow.start && r.time <= c.returnWindow.end)
    const byOperation = {}
    for (const r of calls) {
      const where = r.endpoint === "status" ? (inReturnRoute(r) ? "status (return route)" : "status (elsewhere: webhook pipeline)") : r.endpoint
      byOperation[where] = (byOperation[where] ?? 0) + 1
    }
    const tokens = byOperation.token ?? 0
    const nonToken = calls.length - tokens
    // The client refreshes a token shortly before its lifetime ends (refreshMoment): one per period.
    const lifetimeMs = SANDBOX_DEFAULTS.tokenLifetimeSeconds * 1000
    const tokenPeriodMs = refreshMoment(0, lifetimeMs)
    const tokenBudget = Math.ceil((Date.now() - started) / tokenPeriodMs)
    const perCheckout = r2(nonToken / CHECKOUTS, 3)
    const failedStatus = calls.filter((r) => r.status !== 200).length
    console.log(`calls by operation: ${JSON.stringify(byOperation)}; webhooks delivered: ${deliveries.filter((d) => d.outcome === "delivered").length}/${deliveries.length}`)

    report("outbound-calls", {
      goal: "<= 2 PayLater calls per checkout + 1 token per token lifetime",
      met: nonToken <= 2 * CHECKOUTS && tokens <= tokenBudget,
      headline:
        `${CHECKOUTS} paid checkouts: ${calls.length} calls = ${perCheckout}/checkout + ${tokens} token(s) ` +
        `(budget ${tokenBudget} for ${r2((Date.now() - started) / 1000, 0)} s; token refreshed every ${tokenPeriodMs / 1000} s); ` +
        `by operation ${JSON.stringify(byOperation)}${failedStatus ? `; ${failedStatus} not answered 200` : ""}`,
      details: {
        checkouts: CHECKOUTS,
        byOperation,
        perCheckout,
        tokens,
        tokenBudget,
        checkoutsMs,
        meanCheckoutMs: r2(checkoutsMs / CHECKOUTS, 0),
        idle,
        webhookDeliveries: deliveries.length,
        machineAtStart: before,
      },
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
