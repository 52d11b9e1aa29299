// The few order statistics the benchmarks report. Nearest-rank percentiles: no interpolation, so a
// reported p90 is always a time that was actually measured.
function percentile(values, p) {
  if (!values.length) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length))
  return sorted[Math.min(rank, sorted.length) - 1]
}

const median = (values) => percentile(values, 50)
const round = (n, digits = 2) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : n)

/** A numeric knob from the environment, with a default and an upper bound. */
const bounded = (name, fallback, max) => Math.min(Number(process.env[name]) || fallback, max)

module.exports = { percentile, median, round, bounded }
