// Preloaded into the Medusa server by the webhook benchmarks (node --require <this>): four times a
// second it writes the webhook settlement slots' figures (src/signal-handlers/webhook-slots.ts:
// running, waiting, completed, bound) to $BENCH_BACKLOG_REPORT, so a benchmark knows when a burst
// has been settled, every one of it, instead of guessing from CPU. Reads a process-wide object the
// plugin keeps anyway; changes nothing.
const fs = require("node:fs")

const target = process.env.BENCH_BACKLOG_REPORT
// The key of WEBHOOK_SLOTS_SLOT in src/process-wide/slot-keys.ts.
const KEY = Symbol.for("medusa-payment-paylater.webhook-settlement-slots.v1")
if (target) {
  const timer = setInterval(() => {
    const limiter = globalThis[KEY]
    const figures = limiter
      ? { at: Date.now(), running: limiter.running, waiting: limiter.waiting, completed: limiter.completed, limit: limiter.size }
      : { at: Date.now(), running: 0, waiting: 0, completed: 0, limit: null }
    try {
      const tmp = `${target}.${process.pid}.tmp`
      fs.writeFileSync(tmp, JSON.stringify(figures))
      fs.renameSync(tmp, target)
    } catch {
      // The benchmark's folder went away: it is over.
    }
  }, 250)
  timer.unref()
}
