// One autocannon round against the bench server (loopback only), with an optional rotating pool of
// request bodies, reduced to the figures the benchmarks compare.
const autocannon = require("autocannon")

/**
 * @param {{ url: string, method?: string, path: string, bodies?: string[], connections?: number,
 *           durationS?: number, amount?: number }} opts
 *   Bounded by `durationS` (default 5) or by `amount` requests, never open-ended.
 */
async function round(opts) {
  let next = 0
  const bodies = opts.bodies
  const request = {
    method: opts.method ?? "GET",
    path: opts.path,
    headers: bodies ? { "content-type": "application/json" } : {},
  }
  if (bodies) {
    request.setupRequest = (req) => ({ ...req, body: bodies[next++ % bodies.length] })
  }
  const limits = opts.amount ? { amount: opts.amount } : { duration: opts.durationS ?? 5 }
  const result = await autocannon({
    url: opts.url,
    connections: opts.connections ?? 10,
    pipelining: 1,
    timeout: 30,
    requests: [request],
    ...limits,
  })
  return {
    // Only successful answers count as throughput; anything else is reported next to it.
    rps: result["2xx"] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    ok2xx: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    durationS: result.duration,
  }
}

module.exports = { round }
