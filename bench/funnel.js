#!/usr/bin/env node
// The funnel and the finance report on a busy store's history (issue 33 item 3), through the admin
// routes of a real `medusa start` (production mode) on PostgreSQL:
//
//   history   BENCH_FUNNEL_ATTEMPTS ledger rows over BENCH_FUNNEL_DAYS (default 200,000 over a year: a
//             busy store's ~550 attempts a day; the 90-day funnel and the 90 days before it, which
//             it compares with, aggregate ~100,000 of them and skip the rest), written straight into
//             paylater_attempt / paylater_refund_attempt by integration-tests/helpers/funnel-history.ts
//             (links, Requests to Pay, point of sale; paid, declined, expired, abandoned; refunds), then
//             compacted (VACUUM FULL: the previous run's deleted year) and VACUUM ANALYZEd (as autovacuum
//             would on a live store: statistics and the visibility map)
//   summary   GET /admin/paylater/reports/funnel?period=90d, one after another: p50/p95/max (goal:
//             p95 <= 300 ms)
//   csv       GET /admin/paylater/reports/payments/csv over the whole year (~120,000 payments),
//             read to the end: rows/s (goal >= 50,000/s) and the server's peak RSS growth over its
//             RSS before the download (sampled every 20 ms from /proc)
//   plans     EXPLAIN (ANALYZE, BUFFERS) of the funnel's queries and of a CSV page, to show the
//             indexes used (no sequential scan of the attempts; the small refund table is hashed
//             whole by the money query) and whether they read the table (heap fetches); written into the JSON
//
// The benchmark deletes its rows at the end.
//
//   node bench/funnel.js
//   env: BENCH_FUNNEL_ATTEMPTS=200000 BENCH_FUNNEL_DAYS=365 BENCH_FUNNEL_REQUESTS=60
//   BENCH_FUNNEL_DAYS=180 puts ~100,000 attempts in the 90-day period itself (and as many before it).
//
// The machine is shared: the load average (1 min) is printed and recorded as each phase starts.
const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")
const { Client } = require("pg")
const { startStack } = require("./lib/stack")
const { registerTs } = require("./lib/ts")
const { cpuMs, rssMiB, sleep } = require("./lib/proc")
const { procCpu } = require("../scripts/lib/proc-cpu")
const { bounded, percentile, round: r2, SMOKE } = require("./lib/stats")
const { report, machine } = require("./lib/report")

const ATTEMPTS = bounded("BENCH_FUNNEL_ATTEMPTS", 200_000, 1_000_000, 600)
const DAYS = bounded("BENCH_FUNNEL_DAYS", 365, 366, 30)
const REQUESTS = bounded("BENCH_FUNNEL_REQUESTS", 60, 1000, 5)
const WARMUP = SMOKE ? 1 : 5
const PREFIX = "benchfunnel"
// One checkout has 1.06 attempts on average in the sample history.
const CHECKOUTS = Math.round(ATTEMPTS / 1.06)
const GOAL_P95_MS = 300
const GOAL_ROWS_PER_S = 50_000
const ADMIN = { email: "bench-funnel@paylater-demo.local", password: "bench-funnel-password" }

async function adminToken(stack) {
  // Exists after the first run: creating it again fails, logging in is what matters.
  await stack.medusa.createAdminUser(ADMIN).catch(() => undefined)
  const res = await fetch(`${stack.backend}/auth/user/emailpass`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  })
  const { token } = await res.json()
  if (!token) throw new Error(`admin login failed (${res.status})`)
  return token
}

async function timed(url, token) {
  const t = performance.now()
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } })
  const body = await res.text()
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 300)}`)
  return { ms: performance.now() - t, body }
}

/** Reads the CSV to the end, counting lines as they arrive, while sampling the server's RSS. */
async function downloadCsv(url, token, pid) {
  const t = performance.now()
  const before = rssMiB(pid)
  let peak = before
  let sampling = true
  // (ms since the request, RSS): flat memory means the second half of the download peaks no higher
  // than the first, whatever the number of rows.
  const samples = []
  const sampler = (async () => {
    while (sampling) {
      const rss = rssMiB(pid)
      peak = Math.max(peak, rss)
      samples.push([performance.now() - t, rss])
      await sleep(20)
    }
  })()
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } })
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`)
  let lines = 0
  let bytes = 0
  let quoted = false
  for await (const chunk of res.body) {
    bytes += chunk.length
    // Count record ends (LF outside quotes: a reference may hold a line break) on the bytes: in UTF-8
    // a quote or a line feed byte is never part of another character, and decoding 13 MB to count
    // them took this process (on the same 2 cores as the server) longer than the server took.
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]
      if (b === 0x22) quoted = !quoted
      else if (b === 0x0a && !quoted) lines++
    }
  }
  const ms = performance.now() - t
  sampling = false
  await sampler
  const peakOf = (xs) => xs.reduce((m, [, rss]) => Math.max(m, rss), before)
  return {
    rows: lines - 1,
    ms,
    bytes,
    rssBefore: before,
    rssPeak: peak,
    rssPeakFirstHalf: peakOf(samples.filter(([at]) => at < ms / 2)),
    rssPeakSecondHalf: peakOf(samples.filter(([at]) => at >= ms / 2)),
  }
}

/**
 * CPU time of the benchmark's embedded PostgreSQL, in ms: the postmaster, the children it has reaped
 * (parallel workers, closed connections) and the live ones. A load average of 10 on 2 cores
 * stretches wall times several times over; CPU time per request much less: together they say what a
 * quiet machine would show. Null with an external database, also the machine's own PostgreSQL that
 * the embedded one falls back to (a private checkout run as root): no postmaster of ours to read.
 */
function postgresCpuMs() {
  if (process.env.DATABASE_URL || process.env.DB_HOST) return null
  const dir = path.resolve(process.env.BENCH_PG_DIR || path.join(__dirname, "..", ".tmp", "bench-pg"))
  const pidFile = path.join(dir, "postmaster.pid")
  if (!fs.existsSync(pidFile)) return null
  const master = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0])
  const m = procCpu(master)
  let total = (m.own + m.children) * 1000
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const other = procCpu(entry)
      if (other.parent === master) total += other.own * 1000
    } catch {
      // Gone since the listing: its time is in the postmaster's reaped children now.
    }
  }
  return total
}

function scansOf(plan, out = []) {
  out.push({ node: plan["Node Type"], relation: plan["Relation Name"] ?? null, index: plan["Index Name"] ?? null, rows: plan["Actual Rows"], heap_fetches: plan["Heap Fetches"] })
  for (const child of plan.Plans ?? []) scansOf(child, out)
  return out
}

async function explain(db, text, params, settings = []) {
  // Under the settings the route runs the query with (src/funnel/report-sql.ts), in a transaction of its own.
  await db.query("begin")
  try {
    for (const setting of settings) await db.query(setting)
    return await explainIn(db, text, params)
  } finally {
    await db.query("commit")
  }
}

async function explainIn(db, text, params) {
  const values = []
  const query = text.replace(/\$([a-z_]+)/g, (_, name) => {
    values.push(params[name])
    return `$${values.length}`
  })
  const { rows } = await db.query(`explain (analyze, buffers, format json) ${query}`, values)
  const plan = rows[0]["QUERY PLAN"][0]
  const scans = scansOf(plan.Plan).filter((s) => /Scan/.test(s.node) && s.relation)
  return { execution_ms: r2(plan["Execution Time"]), scans }
}

async function main() {
  const stack = await startStack({ name: "funnel" })
  const db = new Client({ connectionString: stack.databaseUrl })
  await db.connect()
  const knex = require("knex")({ client: "pg", connection: stack.databaseUrl, pool: { min: 0, max: 2 } })
  try {
    registerTs()
    const { seedHistory } = require("../integration-tests/helpers/funnel-history.ts")
    const { funnelQueries } = require("../src/funnel/report-sql.ts")
    const { paymentsQuery } = require("../src/funnel/payments-sql.ts")
    const { CSV_BATCH } = require("../src/funnel/csv.ts")
    const { presetPeriod, previousPeriod, periodOf, addDays, dayOf } = require("../src/funnel/period.ts")

    const clean = async () => {
      await db.query(`delete from paylater_refund_attempt where id like $1`, [`plref_platm_${PREFIX}%`])
      await db.query(`delete from paylater_attempt where id like $1`, [`platm_${PREFIX}%`])
    }
    await clean()
    const [{ n: others }] = (await db.query(`select count(*)::int as n from paylater_attempt`)).rows
    const end = new Date()
    let t = Date.now()
    const history = await seedHistory(knex, { checkouts: CHECKOUTS, days: DAYS, end, seed: 33, prefix: PREFIX })
    // A live store never deletes ledger rows; this benchmark deletes its year at the end of every run,
    // and the next run's year, written into the freed space, left the table and its indexes up to
    // twice their size. FULL rewrites them as a store that wrote its year once has them; ANALYZE and
    // the visibility map (what lets the covering indexes answer without the table) are what
    // autovacuum gives a live store (since PostgreSQL 13, inserts alone trigger it).
    await db.query("vacuum full paylater_attempt")
    await db.query("vacuum analyze paylater_attempt")
    await db.query("vacuum analyze paylater_refund_attempt")
    const [vm] = (await db.query(`select relpages, relallvisible from pg_class where relname = 'paylater_attempt'`)).rows
    console.log(`paylater_attempt: ${vm.relallvisible} of ${vm.relpages} pages all-visible after VACUUM (what lets its covering indexes answer alone)`)
    const attempts = history.attempts.length
    const paidRows = history.attempts.filter((a) => a.state === "paid").length
    console.log(`${attempts} attempts (${paidRows} paid, ${history.refunds.length} refunds) over ${DAYS} days written in ${((Date.now() - t) / 1000).toFixed(1)} s (${others} other rows in the ledger)`)

    const loads = {}
    const loadNow = (phase) => {
      loads[phase] = os.loadavg().map((l) => r2(l))
      console.log(`load average at ${phase}: ${loads[phase].join(", ")}`)
    }
    const token = await adminToken(stack)
    loadNow("funnel")
    const funnelUrl = `${stack.backend}/admin/paylater/reports/funnel?period=90d`
    for (let i = 0; i < WARMUP; i++) await timed(funnelUrl, token)
    const times = []
    let last = null
    const cpu0 = { server: cpuMs(stack.medusaPid), pg: postgresCpuMs() }
    for (let i = 0; i < REQUESTS; i++) {
      const { ms, body } = await timed(funnelUrl, token)
      times.push(ms)
      last = JSON.parse(body)
    }
    const serverCpu = (cpuMs(stack.medusaPid) - cpu0.server) / REQUESTS
    const pgCpu = cpu0.pg === null ? null : (postgresCpuMs() - cpu0.pg) / REQUESTS
    console.log(`funnel 90d CPU per request: server ${serverCpu.toFixed(1)} ms, PostgreSQL ${pgCpu === null ? "n/a" : `${pgCpu.toFixed(1)} ms`}`)
    const p50 = percentile(times, 50)
    const p95 = percentile(times, 95)
    console.log(`funnel 90d: ${REQUESTS} requests, p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms; started ${last.methods.total.attempts.started} attempts in the period`)

    const zone = "Asia/Qatar"
    const today = dayOf(end, zone)
    const from = addDays(today, 1 - DAYS)
    const csvUrl = `${stack.backend}/admin/paylater/reports/payments/csv?period=custom&from=${from}&to=${today}`
    loadNow("csv")
    const csvCpu0 = { server: cpuMs(stack.medusaPid), pg: postgresCpuMs() }
    const csv = await downloadCsv(csvUrl, token, stack.medusaPid)
    const csvCpu = { server: cpuMs(stack.medusaPid) - csvCpu0.server, pg: csvCpu0.pg === null ? null : postgresCpuMs() - csvCpu0.pg }
    // Rows per second of the server's and PostgreSQL's CPU time together: what a quiet machine's wall clock would approach.
    const csvRowsPerCpuS = csv.rows / ((csvCpu.server + (csvCpu.pg ?? 0)) / 1000)
    console.log(`csv CPU: server ${(csvCpu.server / 1000).toFixed(2)} s, PostgreSQL ${csvCpu.pg === null ? "n/a" : `${(csvCpu.pg / 1000).toFixed(2)} s`} = ${Math.round(csvRowsPerCpuS)} rows per CPU-second`)
    const rowsPerS = csv.rows / (csv.ms / 1000)
    console.log(`csv: ${csv.rows} rows, ${(csv.bytes / 1048576).toFixed(1)} MiB in ${(csv.ms / 1000).toFixed(2)} s = ${Math.round(rowsPerS)} rows/s; server RSS ${csv.rssBefore.toFixed(0)} -> peak ${csv.rssPeak.toFixed(0)} MiB (first half of the download ${csv.rssPeakFirstHalf.toFixed(0)}, second half ${csv.rssPeakSecondHalf.toFixed(0)})`)

    const now = new Date()
    const period = presetPeriod("90d", now, zone)
    const plans = {}
    for (const q of funnelQueries({ period, previous: previousPeriod(period), now })) plans[`funnel_${q.name}`] = await explain(db, q.text, q.params, q.settings)
    const page = paymentsQuery({ period: periodOf(from, today, zone), now, limit: CSV_BATCH })
    plans.csv_page = await explain(db, page.text, page.params)
    // The attempts, not the refunds: a period's refunds are joined by hashing the refund table (one
    // row per refund, a tenth of the attempts' size), which costs less than an index probe per payment.
    const seqScans = Object.entries(plans).flatMap(([name, p]) => p.scans.filter((s) => s.node === "Seq Scan" && s.relation === "paylater_attempt").map((s) => `${name}: ${s.relation}`))
    for (const [name, p] of Object.entries(plans)) console.log(`plan ${name}: ${p.execution_ms} ms; ${p.scans.map((s) => `${s.node} ${s.relation}${s.index ? ` (${s.index})` : ""}`).join(", ")}`)

    const growth = csv.rssPeak - csv.rssBefore
    const met = p95 <= GOAL_P95_MS && rowsPerS >= GOAL_ROWS_PER_S && seqScans.length === 0
    report("funnel", {
      goal: `90-day funnel p95 <= ${GOAL_P95_MS} ms over ${ATTEMPTS} attempts; CSV >= ${GOAL_ROWS_PER_S} rows/s with flat memory; no sequential scan of the attempts`,
      met,
      headline: `funnel 90d p95 ${p95.toFixed(0)} ms (p50 ${p50.toFixed(0)}) over ${attempts} attempts (${last.methods.total.attempts.started} in the period); CSV ${csv.rows} rows at ${Math.round(rowsPerS)} rows/s, peak RSS +${growth.toFixed(0)} MiB`,
      attempts,
      attempts_in_period: last.methods.total.attempts.started,
      summary_p50_ms: r2(p50),
      summary_p95_ms: r2(p95),
      summary_max_ms: r2(Math.max(...times)),
      summary_requests: REQUESTS,
      summary_cpu_ms_per_request: { server: r2(serverCpu), postgres: pgCpu === null ? null : r2(pgCpu) },
      csv_rows: csv.rows,
      csv_bytes: csv.bytes,
      csv_seconds: r2(csv.ms / 1000),
      csv_rows_per_s: Math.round(rowsPerS),
      csv_cpu_s: { server: r2(csvCpu.server / 1000), postgres: csvCpu.pg === null ? null : r2(csvCpu.pg / 1000) },
      csv_rows_per_cpu_s: Math.round(csvRowsPerCpuS),
      csv_rss_before_mib: r2(csv.rssBefore),
      csv_peak_rss_growth_mib: r2(growth),
      csv_peak_rss_first_half_mib: r2(csv.rssPeakFirstHalf),
      csv_peak_rss_second_half_mib: r2(csv.rssPeakSecondHalf),
      sequential_scans_of_attempts: seqScans,
      load_average: loads,
      details: { days: DAYS, checkouts: CHECKOUTS, refunds: history.refunds.length, other_rows: others, plans, machineAtStart: machine() },
    })
    await clean()
  } finally {
    await knex.destroy().catch(() => undefined)
    await db.end().catch(() => undefined)
    await stack.stop()
  }
}

// Run by itself, or by bench/lib/smoke-shared.js on its shared stack (which calls main).
if (require.main === module)
  main().catch((error) => {
    console.error(error)
    process.exit(1)
  })

module.exports = { main }
