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

/**
 * Smoke mode (BENCH_SMOKE=1, set by `node bench/run-all.js --smoke`): every benchmark runs its whole
 * path with tiny counts, to prove it still runs; its figures are printed but are not measurements.
 */
const SMOKE = ["1", "true", "yes"].includes(String(process.env.BENCH_SMOKE ?? "").toLowerCase())

/**
 * A numeric knob from the environment, with a default and an upper bound; in smoke mode the
 * `smoke` value replaces the default (an explicit setting still wins).
 */
const bounded = (name, fallback, max, smoke) =>
  Math.min(Number(process.env[name]) || (SMOKE && smoke !== undefined ? smoke : fallback), max)

module.exports = { percentile, median, round, bounded, SMOKE }
