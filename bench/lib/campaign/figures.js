// The fault campaign's figures: counted while it runs, then one table and one JSON result.
const { machine } = require("../report")
const { median, round } = require("../stats")
const { registerTs } = require("../ts")

registerTs()
const { CRASH_POINTS } = require("../../../src/faults/crash-point.ts")
const { INVARIANTS } = require("../../../src/faults/invariants.ts")

function createFigures() {
  return {
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
}

function summarize({ seed, figures, recs, violations, missed, probes, checkouts, attempts, instances }) {
  return {
    seed,
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
    instances,
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

module.exports = { createFigures, summarize, printTable }
