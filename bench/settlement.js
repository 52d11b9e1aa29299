#!/usr/bin/env node
// What settling a PayLater payment costs the store, in one run on one server (issue 13):
//
//   return   the shopper's return for a PAID session (GET /paylater/return/:id: confirm with
//            PayLater, complete the cart, 303) against POST /store/carts/:id/complete with
//            pp_system_default, interleaved pair by pair: p50 and p90 of each, ratio of the p50s.
//            Beside them (not judged): the same paid PayLater cart completed by Medusa's own
//            route, whose ratio to the system provider is what Medusa's completion of a captured
//            PayLater payment costs by itself, the floor under the return route's ratio
//   declined D declined sessions visited on the return route: how many orders they created, how
//            many `error` lines the server logged meanwhile, and whether the next real order's
//            display id follows the last one before them (no number burned)
//   deferred server CPU per verified `success` notification after the route answered (the
//            deferred settlement), for M sessions PayLater has paid but the store has not
//            heard of ("new": places the order) and then for the same, already-paid sessions
//            ("paid": a retry or duplicate); the idle CPU of the server over the same time is
//            subtracted
//
//   node bench/settlement.js   env: BENCH_SETTLE_N=20 BENCH_SETTLE_DECLINED=5 BENCH_SETTLE_NEW=20 BENCH_SETTLE_DUPES=200
const fs = require("node:fs")
const { queryOnce } = require("../scripts/lib/database")
const { startStack } = require("./lib/stack")
const { openStore, payLaterCheckout, payLaterCompletedByMedusa, systemCheckout, PAYLATER_PROVIDER_ID } = require("./lib/checkout")
const { signedBodies } = require("./lib/webhooks")
const { cpuMs, waitUntilIdle, sleep } = require("./lib/proc")
const { bounded, median, percentile, round: r2 } = require("./lib/stats")
const { report, machine } = require("./lib/report")

const N = bounded("BENCH_SETTLE_N", 20, 200, 1)
const DECLINED = bounded("BENCH_SETTLE_DECLINED", 5, 50, 1)
const NEW = bounded("BENCH_SETTLE_NEW", 20, 200, 1)
const DUPES = bounded("BENCH_SETTLE_DUPES", 200, 5000, 10)
const WARMUP_PAIRS = bounded("BENCH_SETTLE_WARMUP", 3, 20, 1)
const EVENT_DELAY_MS = 5000
const GOALS = { returnRatio: 1.1, paidDeferredMs: 5 }

/** `error`-level lines the server wrote since byte `from` of its log (JSON logs in production). */
function errorLinesSince(logFile, from) {
  const text = fs.readFileSync(logFile, "utf8").slice(from)
  return text.split("\n").filter((l) => /"level"\s*:\s*"error"/.test(l) || /^\s*error\b/i.test(l))
}

async function post(backend, body) {
  const res = await fetch(`${backend}/paylater/webhooks`, { method: "POST", headers: { "content-type": "application/json" }, body })
  await res.text()
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}`)
}

/** Server CPU of the deferred work that `send` queued, minus what the idle server burns meanwhile. */
async function deferredCpu(stack, idleMsPerMs, send, count) {
  const c0 = cpuMs(stack.medusaPid)
  await send()
  const c1 = cpuMs(stack.medusaPid)
  const t1 = Date.now()
  const idle = await waitUntilIdle(stack.medusaPid, { minMs: EVENT_DELAY_MS + 500, maxMs: 300_000 })
  const c2 = cpuMs(stack.medusaPid)
  const idleShare = idleMsPerMs * (Date.now() - t1)
  return { ackMs: (c1 - c0) / count, deferredMs: Math.max(0, c2 - c1 - idleShare) / count, idle }
}

async function main() {
  const before = machine()
  const stack = await startStack({ name: "settlement" })
  try {
    const store = await openStore(stack)
    const approve = (orderId) => stack.sandbox.approveLink(orderId)
    const db = (text, values) => queryOnce(stack.databaseUrl, text, values)

    // ---- return route vs cart completion
    for (let i = 0; i < WARMUP_PAIRS; i++) {
      await payLaterCheckout(store, approve)
      await systemCheckout(store)
      await payLaterCompletedByMedusa(store, approve)
    }
    await waitUntilIdle(stack.medusaPid, { minMs: EVENT_DELAY_MS + 500, maxMs: 60_000 })
    const times = { paylater: [], system: [], medusa: [] }
    const run = { paylater: () => payLaterCheckout(store, approve), system: () => systemCheckout(store), medusa: () => payLaterCompletedByMedusa(store, approve) }
    const rotations = [["paylater", "system", "medusa"], ["system", "medusa", "paylater"], ["medusa", "paylater", "system"]]
    for (let i = 0; i < N; i++) {
      for (const kind of rotations[i % rotations.length]) {
        times[kind].push((await run[kind]()).phases.complete)
      }
    }
    const stats = (xs) => ({ p50: r2(median(xs), 1), p90: r2(percentile(xs, 90), 1) })
    const ret = { paylater: stats(times.paylater), system: stats(times.system), completedByMedusa: stats(times.medusa) }
    ret.ratio = r2(ret.paylater.p50 / ret.system.p50)
    ret.floorRatio = r2(ret.completedByMedusa.p50 / ret.system.p50)
    console.log(
      `return route (paid) p50 ${ret.paylater.p50} ms vs complete (system) ${ret.system.p50} ms = ${ret.ratio}x; ` +
        `the paid PayLater cart completed by Medusa's own route ${ret.completedByMedusa.p50} ms = ${ret.floorRatio}x`
    )
    await waitUntilIdle(stack.medusaPid, { minMs: EVENT_DELAY_MS + 500, maxMs: 120_000 })

    // ---- declined sessions on the return route
    const [{ max: lastDisplayId }] = await db(`select max(display_id)::int as max from "order"`)
    const [{ n: ordersBefore }] = await db(`select count(*)::int as n from "order"`)
    const logFrom = fs.statSync(stack.logFile).size
    const redirects = []
    for (let i = 0; i < DECLINED; i++) {
      const cart = await store.client.createCart({ regionId: store.regionId, variantId: store.variantId })
      const collection = await store.client.createPaymentCollection(cart.id)
      const created = await store.client.createPaymentSession(collection.id, PAYLATER_PROVIDER_ID)
      const session = created.data.session
      await stack.sandbox.declineLink(session.data.paylater_order_id, { final: true })
      const res = await store.api.get(`/paylater/return/${encodeURIComponent(session.id)}?outcome=fail`, {
        maxRedirects: 0,
        validateStatus: () => true,
      })
      redirects.push(`${res.status} ${String(res.headers.location ?? "").replace(/^https?:\/\/[^/]+/, "").replace(/cart_01[A-Z0-9]+/, "cart_…")}`)
    }
    await waitUntilIdle(stack.medusaPid, { minMs: EVENT_DELAY_MS + 500, maxMs: 60_000 })
    const [{ n: ordersAfterDeclines }] = await db(`select count(*)::int as n from "order"`)
    const errorLines = errorLinesSince(stack.logFile, logFrom)
    const next = await systemCheckout(store)
    const [{ display_id: nextDisplayId }] = await db(`select display_id from "order" where id = $1`, [next.orderId])
    const declined = {
      sessions: DECLINED,
      redirects: [...new Set(redirects)],
      ordersCreated: ordersAfterDeclines - ordersBefore,
      errorLines: errorLines.length,
      errorSample: errorLines.slice(0, 2),
      lastDisplayIdBefore: lastDisplayId,
      nextDisplayId,
      consecutive: nextDisplayId === lastDisplayId + 1,
    }
    console.log(`declined: ${JSON.stringify(declined)}`)
    await waitUntilIdle(stack.medusaPid, { minMs: EVENT_DELAY_MS + 500, maxMs: 60_000 })

    // ---- deferred CPU per verified success notification
    const webhookUrl = `${stack.backend}/paylater/webhooks`
    stack.sandbox.setWebhookUrl(null)
    const paidUnknown = []
    for (let i = 0; i < NEW; i++) {
      const cart = await store.client.createCart({ regionId: store.regionId, variantId: store.variantId })
      const collection = await store.client.createPaymentCollection(cart.id)
      const created = await store.client.createPaymentSession(collection.id, PAYLATER_PROVIDER_ID)
      await stack.sandbox.approveLink(created.data.session.data.paylater_order_id)
      paidUnknown.push({ sessionId: created.data.session.id, cartId: cart.id })
    }
    stack.sandbox.setWebhookUrl(webhookUrl)
    await waitUntilIdle(stack.medusaPid, { minMs: 1000, maxMs: 60_000 })
    const i0 = cpuMs(stack.medusaPid)
    const t0 = Date.now()
    await sleep(EVENT_DELAY_MS + 1000)
    const idleMsPerMs = (cpuMs(stack.medusaPid) - i0) / (Date.now() - t0)

    const ids = paidUnknown.map((p) => p.sessionId)
    const newBodies = signedBodies(ids, "success", ids.length)
    const fresh = await deferredCpu(stack, idleMsPerMs, async () => {
      for (const body of newBodies) await post(stack.backend, body)
    }, newBodies.length)
    const [{ n: placed }] = await db(
      `select count(*)::int as n from cart_payment_collection cpc join order_cart oc on oc.cart_id = cpc.cart_id where cpc.cart_id = any($1)`,
      [paidUnknown.map((p) => p.cartId)]
    )
    const dupeBodies = signedBodies(ids, "success", DUPES)
    const dupes = await deferredCpu(stack, idleMsPerMs, async () => {
      for (const body of dupeBodies) await post(stack.backend, body)
    }, dupeBodies.length)
    const [{ n: placedAfter }] = await db(
      `select count(*)::int as n from order_cart oc where oc.cart_id = any($1)`,
      [paidUnknown.map((p) => p.cartId)]
    )
    const deferred = {
      idleCpuShare: r2(idleMsPerMs, 4),
      new: { notifications: newBodies.length, ordersPlaced: placed, ackCpuMs: r2(fresh.ackMs), deferredCpuMs: r2(fresh.deferredMs) },
      paid: { notifications: dupeBodies.length, ordersAfter: placedAfter, ackCpuMs: r2(dupes.ackMs), deferredCpuMs: r2(dupes.deferredMs) },
    }
    console.log(`deferred: ${JSON.stringify(deferred)}`)

    const met =
      ret.ratio <= GOALS.returnRatio &&
      declined.ordersCreated === 0 &&
      declined.errorLines === 0 &&
      declined.consecutive &&
      deferred.paid.deferredCpuMs <= GOALS.paidDeferredMs &&
      placed === NEW &&
      placedAfter === NEW
    report("settlement", {
      goal:
        `return route p50 (paid) <= ${GOALS.returnRatio}x cart completion with pp_system_default; declined: no order, ` +
        `no error log, consecutive display ids; deferred CPU per success for a paid session <= ${GOALS.paidDeferredMs} ms`,
      met,
      headline:
        `return p50 ${ret.paylater.p50} vs complete ${ret.system.p50} ms = ${ret.ratio}x (p90 ${ret.paylater.p90} vs ${ret.system.p90}; ` +
        `Medusa's own completion of a paid PayLater cart ${ret.completedByMedusa.p50} ms = ${ret.floorRatio}x); ` +
        `declined x${DECLINED}: ${declined.ordersCreated} orders, ${declined.errorLines} error lines, display id ${declined.lastDisplayIdBefore} -> ${declined.nextDisplayId}; ` +
        `deferred CPU per success: new ${deferred.new.deferredCpuMs} ms (${placed}/${NEW} ordered), paid ${deferred.paid.deferredCpuMs} ms`,
      details: { n: N, return: ret, declined, deferred, machineAtStart: before },
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
