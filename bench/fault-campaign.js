#!/usr/bin/env node
// Killed at any moment, nothing lost (issue 32): a fault campaign against the real server.
//
// A real `medusa start` (NODE_ENV=production) with the plugin, real PostgreSQL, the sandbox as
// PayLater. Seeded shoppers run link and Request to Pay checkouts (approve, decline, abandon,
// return, poll, double submit, a new request after a decline) while the nemesis SIGKILLs the server
// at random moments and at every named crash point (src/faults/crash-point.ts), drops every
// database connection, arms PayLater 5xx / timeouts / lost answers and webhook faults (duplicate,
// delay, reorder, lose), and an admin refunds (partial, full, from Settings → PayLater). Then the
// faults stop, reconciliation and the automatic refund finish, and the invariant checker
// (src/faults/invariants.ts) compares PayLater's records with Medusa's and the ledger's.
//
//   node bench/fault-campaign.js                       seed from the clock (printed)
//   CAMPAIGN_SEED=1234 node bench/fault-campaign.js    replay a seed's choices
//   env: CAMPAIGN_CHECKOUTS=120 CAMPAIGN_KILLS=12 (random kills) CAMPAIGN_NAMED_REPS=1 (each named
//        point, at least 1) CAMPAIGN_SHOPPERS=3 (at a time)
//
// Exit 1 when an invariant is violated or a named crash point was never hit.
const path = require("node:path")
const { startStack } = require("./lib/stack")
const { openStore } = require("./lib/checkout")
const { report, machine } = require("./lib/report")
const { bounded, median, round, SMOKE } = require("./lib/stats")
const { sleep } = require("./lib/proc")
const { createRng } = require("./lib/campaign/rng")
const { createShopper } = require("./lib/campaign/shoppers")
const { startOwnRedis, startSecondInstance } = require("./lib/campaign/second-instance")
const records = require("./lib/campaign/records")
const { registerTs } = require("./lib/ts")

registerTs()
const { CRASH_POINTS, CRASH_LINE_PREFIX } = require("../src/faults/crash-point.ts")
const { checkInvariants, formatViolation, INVARIANTS, dirhams } = require("../src/faults/invariants.ts")
const { probeChecker } = require("../src/faults/invariant-probes.ts")

const SEED = String(process.env.CAMPAIGN_SEED || Date.now() % 1_000_000_007)
const CHECKOUTS = bounded("CAMPAIGN_CHECKOUTS", 120, 100_000, 14)
const RANDOM_KILLS = bounded("CAMPAIGN_KILLS", 12, 10_000, 2)
const NAMED_REPS = Math.max(1, bounded("CAMPAIGN_NAMED_REPS", 1, 1000, 1))
const SHOPPERS = bounded("CAMPAIGN_SHOPPERS", 3, 20, 2)
// 2: two instances on one database and a Redis of the campaign's own (locking, event bus, workflows).
const INSTANCES = bounded("CAMPAIGN_INSTANCES", 1, 2)
// Reconciliation (and the automatic refund, on the same schedule) every 10 s instead of 2 min.
const RECONCILE_CRON = "*/10 * * * * *"
// An open row due longer than this (several runs) was left unasked.
const ASK_SLACK_MS = 3 * 60_000
const REFUND_WINDOW_MS = 11 * 60_000
// A point armed this long without being reached is disarmed (random kill) and armed again later.
const ARMED_PATIENCE_MS = SMOKE ? 90_000 : 120_000
const FINAL_WAIT_MS = SMOKE ? 240_000 : 600_000

const say = (line) => process.stdout.write(`[campaign] ${line}\n`)

const rng = createRng(SEED)
const nemesisRng = rng.fork("nemesis")
const faultRng = rng.fork("faults")
const adminRng = rng.fork("admin")

const figures = {
  kills: 0,
  random_kills: 0,
  named_kills: 0,
  named_crash_points: Object.fromEntries(CRASH_POINTS.map((p) => [p, 0])),
  unexpected_exits: 0,
  restarts: 0,
  restart_seconds: [],
  postgres_restarts: 0,
  postgres_connections_dropped: 0,
  redis_restarts: 0,
  second_instance_kills: 0,
  paylater_faults: 0,
  paylater_faults_by_kind: {},
  webhook_faults: 0,
  webhook_faults_by_kind: {},
  admin_refunds: { partial: 0, full: 0, from_settings: 0, refused: 0 },
  late_payments: 0,
  lock_probe: { probes: 0, max_ms: 0, over_timeout: 0 },
  scenarios: {},
}

async function main() {
  say(`seed ${SEED} (replay: CAMPAIGN_SEED=${SEED}); ${CHECKOUTS} checkouts, ${RANDOM_KILLS} random kills, each named crash point ${NAMED_REPS}x, ${SHOPPERS} shoppers at a time`)
  process.env.BENCH_DB_NAME ||= "medusa_paylater_campaign"
  const startedAt = new Date()
  const redis = INSTANCES > 1 ? await startOwnRedis() : null
  if (redis) say(`two instances, Redis of our own at ${redis.url}`)
  const stack = await startStack({
    // Server logs per seed (.tmp/bench-logs/fault-campaign-<seed>/medusa-<n>.log): one file per start.
    name: `fault-campaign-${SEED}`,
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
    const shopperCtx = { store, sandbox, rng, counts: figures.scenarios, inFlight, webhookFault: () => armWebhookFault(sandbox) }
    const checkout = createShopper(shopperCtx)
    const shopperLoops = Array.from({ length: SHOPPERS }, async () => {
      // Shoppers keep coming while a named point waits for its traffic.
      while (!stopShoppers && (figures.scenarios.carts ?? 0) < CHECKOUTS || (!stopShoppers && !nemesisDone)) {
        // A shopper arrives when the store answers (a checkout against a dead server is no checkout).
        const shopAt = rng.pick(stores)
        await waitForStore(shopAt.backend)
        started++
        await checkout({ store: shopAt }).catch((error) => say(`checkout error (counted, not fatal): ${error.message}`))
      }
    })

    // The nemesis: named crash points (armed one after another), random kills, connection drops, PayLater faults.
    const queue = shuffle(nemesisRng, CRASH_POINTS.flatMap((p) => Array(NAMED_REPS).fill(p)))
    const triggerCtx = { sandbox, databaseUrl, since, admin, backend, checkout: () => checkout({ scenario: "double_submit", kind: "link" }) }
    const server = serverLifecycle(stack, { queue, inFlight, onArmed: (point) => trigger(point, triggerCtx).catch(() => undefined) })
    let randomLeft = RANDOM_KILLS
    const background = [
      everyWhile(() => !stopShoppers, () => nemesisRng.int(20_000, 45_000), async () => {
        figures.postgres_connections_dropped += await records.dropConnections(databaseUrl).catch(() => 0)
        figures.postgres_restarts++
      }),
      everyWhile(() => !stopShoppers, () => faultRng.int(8_000, 20_000), async () => armPayLaterFaults(sandbox)),
      everyWhile(() => !stopShoppers, () => adminRng.int(20_000, 40_000), async () => refundRound(triggerCtx)),
      everyWhile(() => !stopShoppers, () => faultRng.int(10_000, 25_000), async () => latePayment(sandbox)),
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
    const deadline = Date.now() + FINAL_WAIT_MS
    for (;;) {
      await records.makeAutoRefundsDue(databaseUrl, since)
      work = await records.pendingWork(databaseUrl, since, finalStart, ASK_SLACK_MS)
      if ((work.dueRows === 0 && work.dueRefunds === 0 && work.runs >= 3) || Date.now() > deadline) break
      await sleep(5000)
    }
    say(`final: ${work.dueRows} rows still due, ${work.dueRefunds} automatic refunds due, ${work.runs} reconciliation runs since the faults stopped`)

    const recs = await records.readRecords({ databaseUrl, sandbox, since, seed: SEED, askSlackMs: ASK_SLACK_MS })
    const violations = checkInvariants(recs)
    for (const v of violations) say(formatViolation(v))
    const missed = CRASH_POINTS.filter((p) => figures.named_crash_points[p] === 0)
    // The checker on this run's own records: one record broken per invariant must be reported.
    const probes = probeChecker(recs)
    const blind = Object.entries(probes).filter(([, o]) => o === "missed").map(([name]) => name)
    for (const name of blind) say(`CHECKER BLIND: ${name} did not report a record broken on purpose`)
    const result = summarize({ recs, violations, missed, probes, checkouts: figures.scenarios.carts ?? 0, attempts: started })
    printTable(result)
    report("fault-campaign", {
      goal: "0 violations; every named crash point hit",
      met: violations.length === 0 && missed.length === 0 && blind.length === 0,
      headline: `${result.kills} kills (${result.random_kills} random, ${result.named_kills} at named points), ${result.checkouts} checkouts, ${result.paid} paid at PayLater, ${violations.length} violations (seed ${SEED})`,
      details: {},
      ...result,
    })
    if (violations.length || missed.length || blind.length) {
      if (missed.length) say(`named crash points never hit: ${missed.join(", ")}`)
      process.exitCode = 1
    }
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

/**
 * The Medusa process, killed and started again. Every exit is classified: our SIGKILL (random), a
 * named crash point (its marker line is the last thing the process wrote), or unexpected (counted:
 * a server that dies by itself under faults is a finding). After every death the server starts
 * again at once, armed with the next named point while any is left (then the traffic that reaches
 * it is started), so each named kill costs one restart.
 */
function serverLifecycle(stack, { queue, inFlight, onArmed }) {
  let current = { server: stack.server, name: "medusa", armed: null, ourKill: false, armedAt: 0 }
  let index = 0
  let restarting = null
  let finishing = false

  const probeLocks = async (sessions) => {
    // Sessions a shopper was settling when the process died: each must answer within the longest
    // lock wait (completion's 30 s): no lock of the dead process blocks it.
    for (const sessionId of sessions) {
      const t0 = Date.now()
      try {
        const res = await fetch(`${stack.backend}/paylater/return/${encodeURIComponent(sessionId)}?outcome=success`, { redirect: "manual", signal: AbortSignal.timeout(60_000) })
        await res.arrayBuffer()
      } catch {
        // no answer within a minute: over the timeout below
      }
      const ms = Date.now() - t0
      figures.lock_probe.probes++
      figures.lock_probe.max_ms = Math.max(figures.lock_probe.max_ms, ms)
      if (ms > 30_000) figures.lock_probe.over_timeout++
    }
  }

  const start = async (armed) => {
    index++
    const name = `medusa-${index}`
    const t0 = Date.now()
    const { server } = await stack.startServer(armed ? { PAYLATER_CRASH_POINTS: `${armed}@1` } : {}, name)
    figures.restarts++
    figures.restart_seconds.push((Date.now() - t0) / 1000)
    current = { server, name, armed, ourKill: false, armedAt: Date.now() }
    watch(current)
    if (armed) {
      say(`armed ${armed}`)
      onArmed(armed)
    }
  }

  const restartNext = (inFlightAtDeath) => {
    restarting = (async () => {
      const point = finishing ? null : (queue.shift() ?? null)
      try {
        await start(point)
      } catch (error) {
        say(`restart failed (${error.message.split("\n")[0]}); trying once more`)
        await start(point)
      }
      probeLocks(inFlightAtDeath.slice(0, 3)).catch(() => undefined)
    })()
    return restarting
  }

  const watch = (entry) => {
    entry.server.exited.then(({ signal, code }) => {
      const inFlightAtDeath = [...inFlight]
      const marker = entry.server.tail.find((l) => l.startsWith(CRASH_LINE_PREFIX))
      entry.dead = true
      if (entry.stopped) return
      stack.supervisor.children.delete(entry.name)
      if (marker) {
        const point = marker.split(" ")[1]
        figures.named_crash_points[point]++
        figures.named_kills++
        figures.kills++
        say(`killed at named crash point ${point}`)
      } else if (entry.ourKill) {
        figures.random_kills++
        figures.kills++
      } else {
        figures.unexpected_exits++
        say(`server exited by itself (${signal ?? `code ${code}`}); see ${stack.supervisor.logFile(entry.name)}`)
      }
      restartNext(inFlightAtDeath)
    })
  }
  watch(current)

  const kill = async () => {
    const entry = current
    if (entry.dead) return
    entry.ourKill = true
    try {
      process.kill(-entry.server.child.pid, "SIGKILL")
    } catch {
      // already gone
    }
    await entry.server.exited
    await sleep(0)
    await restarting
  }

  return {
    /** Waits for the server to be up; true while a named point is armed. */
    async ready() {
      await restarting
      return !!current.armed
    },
    armedFor: () => (current.armed ? Date.now() - current.armedAt : 0),
    armed: () => current.armed,
    /** A random kill. An armed point whose traffic never came is armed again later. */
    async randomKill() {
      await restarting
      if (current.armed) queue.push(current.armed)
      await kill()
    },
    /** No more arming: the server ends up running, disarmed. */
    async finish() {
      finishing = true
      await restarting
      if (current.armed) await kill()
      await restarting
    },
    stop() {
      current.stopped = true
    },
  }
}

/** Traffic that reaches a named point sooner than the shoppers alone would. */
// Endpoints the PayLater faults leave alone for now (while a refund crash point waits for a refund that PayLater accepts).
const quietEndpoints = new Set()

async function trigger(point, ctx) {
  if (point.includes("refund")) {
    quietEndpoints.add("refund")
    ctx.sandbox.clearFaults()
  }
  try {
    await triggerTraffic(point, ctx)
  } finally {
    quietEndpoints.delete("refund")
  }
}

async function triggerTraffic(point, ctx) {
  if (point === "refund:after-sent") {
    for (let i = 0; i < 6; i++) {
      await refundRound(ctx, { force: true })
      await sleep(3000)
    }
  } else if (point === "auto-refund:after-sent") {
    // A double submit pays a cart twice: the extra payment is listed and, once due, refunded automatically.
    await ctx.checkout()
    ctx.sandbox.advanceClock(REFUND_WINDOW_MS)
    for (let i = 0; i < 20; i++) {
      await records.makeAutoRefundsDue(ctx.databaseUrl, ctx.since).catch(() => 0)
      await sleep(4000)
    }
  }
}

/**
 * A shopper who pays after the store stopped listening: a Request to Pay approved on the phone
 * whose checkout died with the server, a link abandoned earlier and paid later. Nobody comes back
 * to the store: only a notification or reconciliation can find it.
 */
async function latePayment(sandbox) {
  const pending = sandbox.orders().filter((o) => o.status === 0 || o.status === 1)
  if (!pending.length) return
  const order = faultRng.pick(pending)
  try {
    if (order.kind === "rtp") await sandbox.approveRequest(order.orderId)
    else await sandbox.approveLink(order.orderId)
    figures.late_payments++
  } catch {
    // expired or decided meanwhile
  }
}

const WEBHOOK_FAULTS = ["drop", "delay", "duplicate", "reorder"]
function armWebhookFault(sandbox) {
  const mode = faultRng.pick(WEBHOOK_FAULTS)
  sandbox.webhookFault({ mode, count: 1, ...(mode === "delay" ? { delayMs: faultRng.int(1000, 8000) } : {}) })
  figures.webhook_faults++
  figures.webhook_faults_by_kind[mode] = (figures.webhook_faults_by_kind[mode] ?? 0) + 1
}

const PAYLATER_FAULTS = [
  { endpoint: "link", mode: "error", status: 500 },
  { endpoint: "link", mode: "error", status: 503 },
  { endpoint: "link", mode: "timeout", commit: true, kind: "link lost answer" },
  { endpoint: "rtp", mode: "timeout", commit: true, kind: "rtp lost answer" },
  { endpoint: "rtp", mode: "error", status: 502 },
  { endpoint: "status", mode: "error", status: 500 },
  { endpoint: "status", mode: "timeout" },
  { endpoint: "refund", mode: "error", status: 500 },
  { endpoint: "refund", mode: "timeout", commit: true, kind: "refund lost answer" },
  { endpoint: "token", mode: "error", status: 503 },
]
function armPayLaterFaults(sandbox) {
  const n = faultRng.int(1, 3)
  // A fault waits for its endpoint's next call: on a rarely called endpoint (refunds) they would
  // pile up and fail every call, so an endpoint gets a new burst only once its last one is spent.
  const pending = new Set([...sandbox.listFaults().faults.map((f) => f.endpoint), ...quietEndpoints])
  for (let i = 0; i < n; i++) {
    const { kind, ...fault } = faultRng.pick(PAYLATER_FAULTS)
    if (pending.has(fault.endpoint)) continue
    pending.add(fault.endpoint)
    sandbox.fault({ ...fault, count: faultRng.int(1, 3) })
    const name = kind ?? `${fault.endpoint} ${fault.mode}${fault.status ? ` ${fault.status}` : ""}`
    figures.paylater_faults++
    figures.paylater_faults_by_kind[name] = (figures.paylater_faults_by_kind[name] ?? 0) + 1
  }
  return Promise.resolve()
}

/** An admin user (Medusa's CLI) and a bearer token (its login route). */
async function adminSession(stack) {
  const email = `campaign-${Date.now()}@example.com`
  const password = "campaign-admin-password"
  await stack.medusa.createAdminUser({ email, password })
  let token = null
  const login = async () => {
    const res = await fetch(`${stack.backend}/auth/user/emailpass`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    })
    token = (await res.json()).token
  }
  await login()
  return {
    async post(url, body) {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${stack.backend}${url}`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify(body ?? {}),
          signal: AbortSignal.timeout(60_000),
        })
        if (res.status === 401) {
          await login()
          continue
        }
        return { status: res.status, body: await res.json().catch(() => ({})) }
      }
      return { status: 401, body: {} }
    },
  }
}

/**
 * The admin's refunds: PayLater's refund window opened (sandbox clock), then a partial or full
 * refund of a paid order's payment, a refund from Settings → PayLater, and the automatic refunds due.
 */
async function refundRound(ctx, { force = false } = {}) {
  const { sandbox, databaseUrl, since, admin } = ctx
  sandbox.advanceClock(REFUND_WINDOW_MS)
  const payments = (await records.refundablePayments(databaseUrl, since)).filter((p) => dirhams(p.refunded) < dirhams(p.amount))
  if (payments.length && (force || adminRng.chance(0.7))) {
    const p = adminRng.pick(payments)
    const remaining = dirhams(p.amount) - dirhams(p.refunded)
    const full = adminRng.chance(0.4) || remaining <= 5000n
    const amount = full ? remaining : 5000n
    // Medusa's route takes a JSON number: from the exact two-decimal text, never computed in floats.
    const res = await admin.post(`/admin/payments/${p.id}/refund`, { amount: Number(`${amount / 100n}.${String(amount % 100n).padStart(2, "0")}`) })
    if (res.status < 300) figures.admin_refunds[full ? "full" : "partial"]++
    else figures.admin_refunds.refused++
  }
  const items = await records.openAttention(databaseUrl, since)
  if (items.length && (force || adminRng.chance(0.5))) {
    const item = adminRng.pick(items)
    const res = await admin.post(`/admin/paylater/attention/${item.id}/refund`, {})
    if (res.status < 300) figures.admin_refunds.from_settings++
    else figures.admin_refunds.refused++
  }
  await records.makeAutoRefundsDue(databaseUrl, since)
}

function summarize({ recs, violations, missed, probes, checkouts, attempts }) {
  return {
    seed: SEED,
    checkouts,
    checkouts_started: attempts,
    paid: recs.paylater.filter((o) => o.status === 2).length,
    paylater_orders: recs.paylater.length,
    medusa_orders: recs.orders.length,
    refunds_at_paylater: recs.paylater.reduce((n, o) => n + o.refunds.length, 0),
    kills: figures.kills,
    random_kills: figures.random_kills,
    named_kills: figures.named_kills,
    named_crash_points: figures.named_crash_points,
    named_crash_points_missed: missed,
    unexpected_exits: figures.unexpected_exits,
    restarts: figures.restarts,
    restart_seconds_median: round(median(figures.restart_seconds), 1),
    restart_seconds_max: round(Math.max(0, ...figures.restart_seconds), 1),
    postgres_restarts: figures.postgres_restarts,
    postgres_restart_mode: "every connection to the campaign's database terminated (pg_terminate_backend)",
    postgres_connections_dropped: figures.postgres_connections_dropped,
    instances: INSTANCES,
    second_instance_kills: figures.second_instance_kills,
    redis_restarts: figures.redis_restarts,
    paylater_faults: figures.paylater_faults,
    paylater_faults_by_kind: figures.paylater_faults_by_kind,
    webhook_faults: figures.webhook_faults,
    webhook_faults_by_kind: figures.webhook_faults_by_kind,
    admin_refunds: figures.admin_refunds,
    late_payments: figures.late_payments,
    lock_probe: figures.lock_probe,
    scenarios: figures.scenarios,
    invariants: INVARIANTS,
    checker_probes: probes,
    violations,
    machine: machine(),
  }
}

function printTable(r) {
  const rows = [
    ["seed", r.seed],
    ["checkouts", r.checkouts],
    ["paid at PayLater", r.paid],
    ["Medusa orders", r.medusa_orders],
    ["refunds at PayLater", r.refunds_at_paylater],
    ["kills", `${r.kills} (${r.random_kills} random, ${r.named_kills} named)`],
    ...Object.entries(r.named_crash_points).map(([p, n]) => [`  ${p}`, n]),
    ["unexpected exits", r.unexpected_exits],
    ["restart (median / max s)", `${r.restart_seconds_median} / ${r.restart_seconds_max}`],
    ["PostgreSQL restarts", `${r.postgres_restarts} (${r.postgres_connections_dropped} connections dropped)`],
    ["instances", `${r.instances}${r.instances > 1 ? ` (second instance killed ${r.second_instance_kills} times)` : ""}`],
    ["Redis restarts", r.redis_restarts],
    ["PayLater faults", r.paylater_faults],
    ["webhook faults", r.webhook_faults],
    ["admin refunds", `${r.admin_refunds.partial} partial, ${r.admin_refunds.full} full, ${r.admin_refunds.from_settings} from Settings, ${r.admin_refunds.refused} refused`],
    ["late payments (nobody returns)", r.late_payments],
    ["lock probe after kills", `${r.lock_probe.probes} sessions, slowest ${r.lock_probe.max_ms} ms, ${r.lock_probe.over_timeout} over 30 s`],
    ["checker probes on these records", Object.entries(r.checker_probes).map(([k, v]) => `${k} ${v}`).join(", ")],
    ["violations", r.violations.length],
  ]
  const width = Math.max(...rows.map(([k]) => String(k).length))
  console.log("")
  for (const [k, v] of rows) console.log(`${String(k).padEnd(width)}  ${v}`)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
