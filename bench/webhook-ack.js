#!/usr/bin/env node
// How fast our webhook route acknowledges PayLater, compared with Medusa's own GET /health on the
// same server: requests/s and p50/p99 latency, autocannon, interleaved rounds so drift cancels.
//
//   node bench/webhook-ack.js
//   env: BENCH_ACK_ROUNDS=4  BENCH_ACK_SECONDS=5  BENCH_ACK_CONNECTIONS=10  BENCH_ACK_SESSIONS=10
//        BENCH_ACK_WARMUP_SECONDS=2 (0 in smoke mode)
//
// Three kinds of round, in the order health, known, unknown, repeated:
//   health   GET /health
//   known    signed "success" notifications for sessions this store has (paid, ordered: what a
//            PayLater retry or duplicate looks like); each one also queues the plugin's delayed
//            paylater.webhook_received event (5 s), whose processing is priced separately
//   unknown  signed notifications for order ids the store does not know (200 at once; the delayed
//            pipeline finds no session, logs it and drops it)
//   core     (reference, not part of the goal) the same "known" bodies on Medusa's own
//            POST /hooks/payment/paylater_paylater, which verifies nothing and only emits the event:
//            the floor of what an acknowledgement costs in Medusa
// After every round the benchmark waits until the server is idle again (for "known", at least the
// 5 s event delay), so deferred work never lands in another round's window; the server's CPU time
// from round start to idle, per request, says what each kind really costs.
const { startStack } = require("./lib/stack")
const { openStore, payLaterCheckout } = require("./lib/checkout")
const { signedBodies } = require("./lib/webhooks")
const { round } = require("./lib/load")
const { cpuMs, waitUntilIdle } = require("./lib/proc")
const { bounded, median, round: r2 } = require("./lib/stats")
const { report, machine } = require("./lib/report")

const ROUNDS = bounded("BENCH_ACK_ROUNDS", 4, 20, 1)
const SECONDS = bounded("BENCH_ACK_SECONDS", 5, 60, 1)
const CONNECTIONS = bounded("BENCH_ACK_CONNECTIONS", 10, 200)
const SESSIONS = bounded("BENCH_ACK_SESSIONS", 10, 200, 2)
// Seconds of each kind before the measured rounds (none in smoke mode: nothing is measured there).
const WARMUP_S = bounded("BENCH_ACK_WARMUP_SECONDS", 2, 30, 0)
const EVENT_DELAY_MS = 5000
// Issue 13: at least Medusa's own /hooks/payment route, and 0.6x GET /health, in throughput and p99.
const GOALS = { core: 1.0, health: 0.6 }

async function main() {
  const before = machine()
  const stack = await startStack({ name: "webhook-ack" })
  try {
    const store = await openStore(stack)
    console.log(`creating ${SESSIONS} paid PayLater checkouts for the "known" notifications ...`)
    const sessionIds = []
    for (let i = 0; i < SESSIONS; i++) {
      sessionIds.push((await payLaterCheckout(store, (id) => stack.sandbox.approveLink(id))).sessionId)
    }
    // Their own sandbox notifications and pipeline runs must be over before anything is measured.
    await waitUntilIdle(stack.medusaPid, { minMs: EVENT_DELAY_MS + 500, maxMs: 120_000 })

    const unknownIds = Array.from({ length: 1000 }, (_, i) => `payses_01JUNKNOWN${String(i).padStart(16, "0")}`)
    const kinds = {
      health: { method: "GET", path: "/health" },
      known: { method: "POST", path: "/paylater/webhooks", bodies: signedBodies(sessionIds, "success", 5000) },
      unknown: { method: "POST", path: "/paylater/webhooks", bodies: signedBodies(unknownIds, "success", 5000) },
      core: { method: "POST", path: "/hooks/payment/paylater_paylater", bodies: signedBodies(sessionIds, "success", 5000) },
    }

    const runOne = async (kind, durationS) => {
      const cpu0 = cpuMs(stack.medusaPid)
      const res = await round({ url: stack.backend, connections: CONNECTIONS, durationS, ...kinds[kind] })
      const cpuWindow = cpuMs(stack.medusaPid) - cpu0
      const idle = await waitUntilIdle(stack.medusaPid, {
        // Every verified notification, for a known session or not, now queues the delayed event.
        minMs: kind === "health" ? 0 : EVENT_DELAY_MS + 500,
        maxMs: 300_000,
      })
      const cpuTotal = cpuMs(stack.medusaPid) - cpu0
      if (res.non2xx || res.errors || res.timeouts) {
        throw new Error(`${kind}: ${res.non2xx} non-2xx, ${res.errors} errors, ${res.timeouts} timeouts of ${res.total}`)
      }
      return { kind, ...res, cpuMsPerReqInWindow: cpuWindow / res.total, cpuMsPerReqToIdle: cpuTotal / res.total, idle }
    }

    if (WARMUP_S > 0) {
      console.log(`warm-up (${WARMUP_S} s of each kind) ...`)
      for (const kind of Object.keys(kinds)) await runOne(kind, WARMUP_S)
    }

    const rows = []
    for (let i = 0; i < ROUNDS; i++) {
      for (const kind of Object.keys(kinds)) {
        const row = await runOne(kind, SECONDS)
        rows.push(row)
        console.log(
          `round ${i + 1} ${kind.padEnd(7)} ${r2(row.rps, 0)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms  ` +
            `server CPU/req ${r2(row.cpuMsPerReqInWindow)} ms in window, ${r2(row.cpuMsPerReqToIdle)} ms to idle ` +
            `(idle after ${r2(row.idle.waitedMs / 1000, 1)} s${row.idle.settled ? "" : ", NOT settled"})`
        )
      }
    }

    const summary = {}
    for (const kind of Object.keys(kinds)) {
      const mine = rows.filter((x) => x.kind === kind)
      summary[kind] = {
        rps: r2(median(mine.map((x) => x.rps)), 0),
        p50: median(mine.map((x) => x.p50)),
        p99: median(mine.map((x) => x.p99)),
        cpuMsPerReqInWindow: r2(median(mine.map((x) => x.cpuMsPerReqInWindow))),
        cpuMsPerReqToIdle: r2(median(mine.map((x) => x.cpuMsPerReqToIdle))),
      }
    }
    // Ratio within each round (health and the webhook kind ran back to back), then the median of
    // those: load from other work shifts both sides of a round alike, so it cancels here.
    const perRound = (k) =>
      rows.filter((x) => x.kind === "health").map((h, i) => rows.filter((x) => x.kind === k)[i].rps / h.rps)
    const ratio = (k) => r2(median(perRound(k)))
    const ratios = { known: ratio("known"), unknown: ratio("unknown"), core: ratio("core") }
    const roundRatios = Object.fromEntries(["known", "unknown", "core"].map((k) => [k, perRound(k).map((x) => r2(x))]))
    // Against the core route, round by round too (core ran right after known and unknown).
    const perRoundVsCore = (k) =>
      rows.filter((x) => x.kind === "core").map((c, i) => rows.filter((x) => x.kind === k)[i].rps / c.rps)
    const vsCore = { known: r2(median(perRoundVsCore("known"))), unknown: r2(median(perRoundVsCore("unknown"))) }
    // p99: how many times faster than the reference each kind's p99 is (>= goal means met).
    const p99Vs = (k, ref) => r2(summary[ref].p99 / Math.max(summary[k].p99, 1))
    const p99 = {
      known: { vsHealth: p99Vs("known", "health"), vsCore: p99Vs("known", "core") },
      unknown: { vsHealth: p99Vs("unknown", "health"), vsCore: p99Vs("unknown", "core") },
    }
    const kindMet = (k) =>
      ratios[k] >= GOALS.health && vsCore[k] >= GOALS.core && p99[k].vsHealth >= GOALS.health && p99[k].vsCore >= GOALS.core
    const fmt = (k) => `${k} ${summary[k].rps} req/s (p50 ${summary[k].p50} ms, p99 ${summary[k].p99} ms)`
    const deferred = r2(summary.known.cpuMsPerReqToIdle - summary.known.cpuMsPerReqInWindow)
    report("webhook-ack", {
      goal: `webhook acks >= ${GOALS.core}x Medusa's /hooks/payment and >= ${GOALS.health}x GET /health, throughput and p99 (known and unknown sessions)`,
      met: kindMet("known") && kindMet("unknown"),
      headline:
        `${fmt("health")}; ${fmt("known")}: ${ratios.known}x health, ${vsCore.known}x core; ` +
        `${fmt("unknown")}: ${ratios.unknown}x health, ${vsCore.unknown}x core; ` +
        `${fmt("core")}: ${ratios.core}x health (ratios: median of per-round ratios ${JSON.stringify(roundRatios)}); ` +
        `p99 ratios ${JSON.stringify(p99)}; ` +
        `server CPU ms/request health ${summary.health.cpuMsPerReqInWindow}, known ${summary.known.cpuMsPerReqInWindow} ` +
        `(+ deferred ${deferred}: ${summary.known.cpuMsPerReqToIdle} to idle), unknown ${summary.unknown.cpuMsPerReqInWindow}, ` +
        `core ${summary.core.cpuMsPerReqInWindow} (${summary.core.cpuMsPerReqToIdle} to idle)`,
      details: { summary, ratios, vsCore, p99, deferredKnownCpuMs: deferred, roundRatios, rows, rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS, machineAtStart: before },
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
