#!/usr/bin/env node
// Killed at any moment, nothing lost (issue 32): a fault campaign against the real server.
//
// A real `medusa start` (NODE_ENV=staging: production's JSON logs and secure cookies, but crash points
// are refused under NODE_ENV=production) with the plugin, real PostgreSQL, the sandbox as
// PayLater. Seeded shoppers run link and Request to Pay checkouts (approve, decline, abandon,
// return, poll, double submit, a new request after a decline) while the nemesis SIGKILLs the server
// at random moments and at every named crash point (src/faults/crash-point.ts), drops every
// database connection, arms PayLater 5xx / timeouts / lost answers and webhook faults (duplicate,
// delay, reorder, lose), and an admin refunds (partial, full, from Settings → PayLater). Then the
// faults stop, reconciliation and the automatic refund finish, and the invariant checker
// (src/faults/invariants.ts) compares PayLater's records with Medusa's and the ledger's.
//
//   node bench/fault-campaign.js                       the long run (npm run bench:fault-campaign):
//                                                      seed from the clock (printed)
//   CAMPAIGN_SEED=1234 node bench/fault-campaign.js    replay a seed's choices
//   BENCH_SMOKE=1 node bench/fault-campaign.js         CI's smoke (npm test, bench/run-all.js --smoke):
//                                                      every named crash point killed once, no random
//                                                      kill asked for, 6 checkouts, 2 shoppers
//   env: CAMPAIGN_CHECKOUTS=120 CAMPAIGN_KILLS=12 (random kills) CAMPAIGN_NAMED_REPS=1 (each named
//        point, at least 1) CAMPAIGN_SHOPPERS=3 (at a time) CAMPAIGN_INSTANCES=2 (two instances, Redis)
//        CAMPAIGN_MAX_MINUTES (no new checkouts after it, once every kill is done)
//
// Exit 1 when an invariant is violated, a named crash point was never hit, or the checker missed a
// record broken on purpose (src/faults/invariant-probes.ts).
const { startStack } = require("./lib/stack")
const { openStore } = require("./lib/checkout")
const { report } = require("./lib/report")
const { bounded, SMOKE } = require("./lib/stats")
const { sleep } = require("./lib/proc")
const { createRng } = require("./lib/campaign/rng")
const { createShopper } = require("./lib/campaign/shoppers")
const { startOwnRedis, startSecondInstance } = require("./lib/campaign/second-instance")
const records = require("./lib/campaign/records")
const { serverLifecycle } = require("./lib/campaign/server-lifecycle")
const { armWebhookFault, armPayLaterFaults, latePayment, trigger } = require("./lib/campaign/faults")
const { adminSession, refundRound, REFUND_WINDOW_MS } = require("./lib/campaign/admin")
const { createFigures, summarize, printTable } = require("./lib/campaign/figures")
const { registerTs } = require("./lib/ts")

registerTs()
const { CRASH_POINTS } = require("../src/faults/crash-point.ts")
const { checkInvariants, formatViolation } = require("../src/faults/invariants.ts")
const { probeChecker } = require("../src/faults/invariant-probes.ts")
// An order's owner is decided this long after it was placed.
const { OWNER_SETTLES_WITHIN_MS: OWNER_BOUND_MS } = require("../src/modules/paylater-ledger/whose-money.ts")

const SEED = String(process.env.CAMPAIGN_SEED || Date.now() % 1_000_000_007)
// Smoke: one checkout per named point (shoppers keep coming anyway while a point waits for its
// traffic), and no random kill beyond the one that arms the first point and those that re-arm a
// point its traffic did not reach in time: CI proves every crash point once and no more.
const CHECKOUTS = bounded("CAMPAIGN_CHECKOUTS", 120, 100_000, 6)
const RANDOM_KILLS = bounded("CAMPAIGN_KILLS", 12, 10_000, 0)
const NAMED_REPS = Math.max(1, bounded("CAMPAIGN_NAMED_REPS", 1, 1000, 1))
const SHOPPERS = bounded("CAMPAIGN_SHOPPERS", 3, 20, 2)
// 2: two instances on one database and a Redis of the campaign's own (locking, event bus, workflows).
const INSTANCES = bounded("CAMPAIGN_INSTANCES", 1, 2)
// Stop taking new checkouts after this many minutes even short of CAMPAIGN_CHECKOUTS (once the nemesis is done).
const MAX_MINUTES = bounded("CAMPAIGN_MAX_MINUTES", 0, 24 * 60)
// Reconciliation (and the automatic refund, on the same schedule) every 10 s instead of 2 min.
const RECONCILE_CRON = "*/10 * * * * *"
// An open row due longer than this (several runs) was left unasked.
const ASK_SLACK_MS = 3 * 60_000
// A point armed this long without being reached is disarmed (random kill) and armed again later.
const ARMED_PATIENCE_MS = SMOKE ? 90_000 : 120_000
const FINAL_WAIT_MS = SMOKE ? 240_000 : 600_000
// The longest a paid row waits for its next question (ASK_BACKOFF_MAX_MS, 30 min) and a run after it.
const MAX_ASK_WAIT_MS = 32 * 60_000
// The longest an unsent Medusa refund waits to be listed: the store's refund stale bound (the provider's
// sent-once bound, minutes at most) and a reconciliation run.
const UNSENT_REFUND_WAIT_MS = 6 * 60_000

const say = (line) => process.stdout.write(`[campaign] ${line}\n`)

const rng = createRng(SEED)
const nemesisRng = rng.fork("nemesis")
const faultRng = rng.fork("faults")
const adminRng = rng.fork("admin")

const figures = createFigures()

async function main() {
  say(`seed ${SEED} (replay: CAMPAIGN_SEED=${SEED}); ${CHECKOUTS} checkouts, ${RANDOM_KILLS} random kills, each named crash point ${NAMED_REPS}x, ${SHOPPERS} shoppers at a time`)
  process.env.BENCH_DB_NAME ||= "medusa_paylater_campaign"
  const startedAt = new Date()
  const redis = INSTANCES > 1 ? await startOwnRedis() : null
  if (redis) say(`two instances, Redis of our own at ${redis.url}`)
  const stack = await startStack({
    // Server logs per seed (.tmp/bench-logs/fault-campaign-<seed>/medusa-<n>.log): one file per start.
    name: `fault-campaign-${SEED}`,
    // The plugin refuses to boot with PAYLATER_CRASH_POINTS set under NODE_ENV=production
    // (src/faults/crash-point.ts); staging is Medusa's closest mode that is not production.
    nodeEnv: "staging",
    env: {
      PAYLATER_RECONCILE_SCHEDULE: RECONCILE_CRON,
      PAYLATER_WEBHOOK_DELAY_MS: "500",
      PAYLATER_TIMEOUT_MS: "4000",
      PAYLATER_RTP_EXPIRY_MINUTES: "3",
      PAYLATER_ELIGIBILITY_CHECK: "off",
      PAYLATER_RTP_LIMIT_PER_MOBILE: "100000",
      PAYLATER_RTP_LIMIT_PER_CART: "100000",
      PAYLATER_LINK_LIMIT_PER_CART: "100000",
      ...(redis ? { REDIS_URL: redis.url, MEDUSA_REDIS_PREFIX: "campaign" } : {}),
    },
    sandbox: { maxRecords: 100_000 },
  })
  const { sandbox, databaseUrl, backend } = stack
  const since = startedAt
  try {
    const store = await openStore(stack)
    const second = redis ? await startSecondInstance(stack) : null
    const stores = [{ ...store, backend }, ...(second ? [{ ...(await openStore({ ...stack, backend: second.backend })), backend: second.backend }] : [])]
    const admin = await adminSession(stack)
    let nemesisDone = false
    // Shoppers.
    let started = 0
    let stopShoppers = false
    const inFlight = new Set()
    const shopperCtx = { store, sandbox, rng, counts: figures.scenarios, inFlight, webhookFault: () => armWebhookFault(sandbox, { rng: faultRng, figures }) }
    const checkout = createShopper(shopperCtx)
    const shopperLoops = Array.from({ length: SHOPPERS }, async () => {
      // Shoppers keep coming while a named point waits for its traffic.
      const endBy = MAX_MINUTES ? startedAt.getTime() + MAX_MINUTES * 60_000 : Infinity
      while (!stopShoppers && (((figures.scenarios.carts ?? 0) < CHECKOUTS && Date.now() < endBy) || !nemesisDone)) {
        // A shopper arrives when the store answers (a checkout against a dead server is no checkout).
        const shopAt = rng.pick(stores)
        await waitForStore(shopAt.backend)
        started++
        await checkout({ store: shopAt }).catch((error) => say(`checkout error (counted, not fatal): ${error.message}`))
      }
    })

    // The nemesis: named crash points (armed one after another), random kills, connection drops, PayLater faults.
    const queue = shuffle(nemesisRng, CRASH_POINTS.flatMap((p) => Array(NAMED_REPS).fill(p)))
    const triggerCtx = { sandbox, databaseUrl, since, admin, adminRng, figures, checkout: () => checkout({ scenario: "double_submit", kind: "link" }) }
    const onArmed = (point) => trigger(point, triggerCtx).catch(() => undefined)
    const server = serverLifecycle(stack, { queue, inFlight, onArmed, figures, say })
    let randomLeft = RANDOM_KILLS
    const background = [
      everyWhile(() => !stopShoppers, () => nemesisRng.int(20_000, 45_000), async () => {
        figures.postgres_connections_dropped += await records.dropConnections(databaseUrl).catch(() => 0)
        figures.postgres_restarts++
      }),
      everyWhile(() => !stopShoppers, () => faultRng.int(8_000, 20_000), async () => armPayLaterFaults(sandbox, { rng: faultRng, figures })),
      everyWhile(() => !stopShoppers, () => adminRng.int(20_000, 40_000), async () => refundRound(triggerCtx)),
      everyWhile(() => !stopShoppers, () => faultRng.int(10_000, 25_000), async () => latePayment(sandbox, { rng: faultRng, figures })),
      ...(second
        ? [
            // The second instance dies while the first serves, and comes back.
            everyWhile(() => !stopShoppers, () => nemesisRng.int(25_000, 60_000), async () => {
              await second.kill()
              figures.kills++
              figures.random_kills++
              figures.second_instance_kills++
              await second.start()
            }),
            everyWhile(() => !stopShoppers, () => nemesisRng.int(40_000, 90_000), async () => {
              await redis.restart()
              figures.redis_restarts++
            }),
          ]
        : []),
    ]
    while (queue.length || randomLeft > 0 || server.armed()) {
      await sleep(nemesisRng.int(SMOKE ? 3_000 : 8_000, SMOKE ? 8_000 : 30_000))
      const armed = await server.ready()
      if (armed && server.armedFor() < ARMED_PATIENCE_MS) continue
      if (armed) say(`${server.armed()} not reached within ${ARMED_PATIENCE_MS / 1000} s: killed, armed again later`)
      if (armed || randomLeft > 0 || queue.length) {
        randomLeft = Math.max(0, randomLeft - 1)
        await server.randomKill()
      }
    }
    nemesisDone = true
    say(`nemesis done (${figures.kills} kills); letting the shoppers finish ${CHECKOUTS} checkouts`)
    await Promise.all(shopperLoops)
    stopShoppers = true
    await Promise.all(background)

    // Faults stop; reconciliation and the automatic refund finish.
    sandbox.clearFaults()
    await server.finish()
    say("faults stopped; waiting for reconciliation and the automatic refund to finish")
    const finalStart = new Date()
    sandbox.advanceClock(REFUND_WINDOW_MS)
    let work
    let deadline = Date.now() + FINAL_WAIT_MS
    for (;;) {
      await records.makeAutoRefundsDue(databaseUrl, since)
      await records.makeOwnerDecisionsDue(databaseUrl, since, OWNER_BOUND_MS)
      const paidAtPayLater = sandbox.orders().filter((o) => o.status === 2).map((o) => o.orderId)
      work = await records.pendingWork(databaseUrl, since, finalStart, ASK_SLACK_MS, paidAtPayLater)
      // A payment whose notification was lost is found at its row's next question: wait for that too
      // (at most the longest backoff), and judge it after.
      if (work.paidOpenNextAsk) deadline = Math.max(deadline, Math.min(work.paidOpenNextAsk + 60_000, Date.now() + MAX_ASK_WAIT_MS))
      // An order nobody recorded as a payment's is decided past the owner decision's bound (made due
      // above; this bound is the wait's limit should the times not have been moved).
      if (work.unownedLastPaid) deadline = Math.max(deadline, Math.min(work.unownedLastPaid + OWNER_BOUND_MS + 120_000, Date.now() + MAX_ASK_WAIT_MS))
      // An order with no payment at all (a completion killed before the authorization): undone by
      // recovery past the same bound, or given the money PayLater holds by settlement.
      if (work.moneyless) deadline = Math.max(deadline, Math.min(work.moneylessNewest + OWNER_BOUND_MS + 120_000, Date.now() + MAX_ASK_WAIT_MS))
      // A paid row being placed (or placed again after a kill): until its next try, and a minute for it.
      if (work.unplaced) deadline = Math.max(deadline, Math.min((work.unplacedNextTry ?? Date.now()) + 60_000, Date.now() + MAX_ASK_WAIT_MS))
      // A Medusa refund a kill left unsent: until recovery lists it (past the refund stale bound, a
      // few minutes at most), and a minute for its run.
      if (work.unsentRefunds) deadline = Math.max(deadline, Math.min(work.unsentRefundsNewest + UNSENT_REFUND_WAIT_MS, Date.now() + MAX_ASK_WAIT_MS))
      const settled =
        work.dueRows === 0 &&
        work.dueRefunds === 0 &&
        work.pendingRefunds === 0 &&
        work.unsentRefunds === 0 &&
        work.paidOpen === 0 &&
        work.unowned === 0 &&
        work.unplaced === 0 &&
        work.moneyless === 0 &&
        work.runs >= 3
      if (settled || Date.now() > deadline) break
      await sleep(5000)
    }
    say(
      `final: ${work.dueRows} rows still due, ${work.paidOpen} paid at PayLater still open in the ledger, ${work.unplaced} paid rows being placed, ${work.unowned} paid orders without a recorded owner, ${work.moneyless} orders with no payment at all, ${work.dueRefunds} automatic refunds due, ${work.pendingRefunds} refunds pending, ${work.unsentRefunds} Medusa refunds unsent and not yet listed, ${work.runs} reconciliation runs since the faults stopped`
    )

    const recs = await records.readRecords({ databaseUrl, sandbox, since, seed: SEED, askSlackMs: ASK_SLACK_MS })
    const violations = checkInvariants(recs)
    for (const v of violations) say(formatViolation(v))
    const missed = CRASH_POINTS.filter((p) => figures.named_crash_points[p] === 0)
    // The checker on this run's own records: one record broken per invariant must be reported.
    const probes = probeChecker(recs)
    const blind = Object.entries(probes).filter(([, o]) => o === "missed").map(([name]) => name)
    for (const name of blind) say(`CHECKER BLIND: ${name} did not report a record broken on purpose`)
    const result = summarize({ seed: SEED, figures, recs, violations, missed, probes, checkouts: figures.scenarios.carts ?? 0, attempts: started, instances: INSTANCES })
    printTable(result)
    report("fault-campaign", {
      goal: "0 violations; every named crash point hit",
      met: violations.length === 0 && missed.length === 0 && blind.length === 0,
      headline: `${result.kills} kills (${result.random_kills} random, ${result.named_kills} at named points), ${result.checkouts} checkouts, ${result.paid} paid at PayLater, ${violations.length} violations (seed ${SEED})`,
      details: {},
      ...result,
    })
    if (missed.length) say(`named crash points never hit: ${missed.join(", ")}`)
    // Smoke or full, a violation fails the run: every class the campaign found so far is fixed with
    // a deterministic test (BENCHMARKS.md), so a new one is news, printed with the seed that replays it.
    if (missed.length || blind.length || violations.length) process.exitCode = 1
    server.stop()
  } finally {
    await stack.stop()
    await redis?.stop()
  }
}

async function waitForStore(backend) {
  for (;;) {
    try {
      const res = await fetch(`${backend}/health`, { signal: AbortSignal.timeout(5000) })
      await res.arrayBuffer()
      if (res.status === 200) return
    } catch {
      // down or restarting
    }
    await sleep(1000)
  }
}

function shuffle(r, items) {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = r.int(0, i)
    ;[out[i], out[j]] = [out[j], out[i]]
  }
  return out
}

async function everyWhile(cond, nextDelay, fn) {
  while (cond()) {
    const until = Date.now() + nextDelay()
    while (cond() && Date.now() < until) await sleep(500)
    if (!cond()) return
    await fn().catch((error) => say(`nemesis step failed (not fatal): ${error.message}`))
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
