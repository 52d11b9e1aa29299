// What the fault campaign does to PayLater and to its notifications, and the traffic that reaches a
// named crash point sooner than the shoppers alone would.
const { sleep } = require("../proc")
const records = require("./records")
const { refundRound, REFUND_WINDOW_MS } = require("./admin")

// Endpoints the PayLater faults leave alone for now (while a refund crash point waits for a refund that PayLater accepts).
const quietEndpoints = new Set()

/**
 * A shopper who pays after the store stopped listening: a Request to Pay approved on the phone
 * whose checkout died with the server, a link abandoned earlier and paid later. Nobody comes back
 * to the store: only a notification or reconciliation can find it.
 */
async function latePayment(sandbox, { rng, figures }) {
  const pending = sandbox.orders().filter((o) => o.status === 0 || o.status === 1)
  if (!pending.length) return
  const order = rng.pick(pending)
  try {
    if (order.kind === "rtp") await sandbox.approveRequest(order.orderId)
    else await sandbox.approveLink(order.orderId)
    figures.late_payments++
  } catch {
    // expired or decided meanwhile
  }
}

const WEBHOOK_FAULTS = ["drop", "delay", "duplicate", "reorder"]
function armWebhookFault(sandbox, { rng, figures }) {
  const mode = rng.pick(WEBHOOK_FAULTS)
  sandbox.webhookFault({ mode, count: 1, ...(mode === "delay" ? { delayMs: rng.int(1000, 8000) } : {}) })
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
function armPayLaterFaults(sandbox, { rng, figures }) {
  const n = rng.int(1, 3)
  // A fault waits for its endpoint's next call: on a rarely called endpoint (refunds) they would
  // pile up and fail every call, so an endpoint gets a new burst only once its last one is spent.
  const pending = new Set([...sandbox.listFaults().faults.map((f) => f.endpoint), ...quietEndpoints])
  for (let i = 0; i < n; i++) {
    const { kind, ...fault } = rng.pick(PAYLATER_FAULTS)
    if (pending.has(fault.endpoint)) continue
    pending.add(fault.endpoint)
    sandbox.fault({ ...fault, count: rng.int(1, 3) })
    const name = kind ?? `${fault.endpoint} ${fault.mode}${fault.status ? ` ${fault.status}` : ""}`
    figures.paylater_faults++
    figures.paylater_faults_by_kind[name] = (figures.paylater_faults_by_kind[name] ?? 0) + 1
  }
  return Promise.resolve()
}

/** Traffic that reaches a named point sooner than the shoppers alone would. */
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

module.exports = { armWebhookFault, armPayLaterFaults, latePayment, trigger }
