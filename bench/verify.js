#!/usr/bin/env node
// verifyWebhook throughput on one core: how many PayLater notifications one Node thread can verify
// per second (MD5 of the fields + HMAC-SHA256 of the hash, both compared in constant time).
//
//   node bench/verify.js            (BENCH_VERIFY_ROUNDS=9, BENCH_VERIFY_ROUND_MS=1000)
//
// The real TypeScript source is loaded through ts-node/swc, so what is measured is the shipped code.
// Payloads are distinct (1,000 signed bodies, cycled) so no cache or constant folding helps.
//
// "Per second on one core" is counted per second of this thread's own CPU time (process.cpuUsage),
// because on a shared 2-core machine wall time also counts the moments other work held the core;
// the wall-clock rate is reported next to it. A floor is measured too: the bare MD5 + HMAC-SHA256
// that every verification must do, so the rest (validation, constant-time compare) shows.
const { registerTs } = require("./lib/ts")
const { bounded, median, round } = require("./lib/stats")
const { report, machine } = require("./lib/report")

registerTs()
const { signWebhook, verifyWebhook, computeTxHash, computeSignature } = require("../src/lib/paylater/webhook.ts")

const SECRET = "sandbox-webhook-secret"
const MERCHANT = "sandbox-merchant"
const ROUNDS = bounded("BENCH_VERIFY_ROUNDS", 9, 50, 2)
const ROUND_MS = bounded("BENCH_VERIFY_ROUND_MS", 1000, 10_000, 200)
const WARMUP_MS = bounded("BENCH_VERIFY_WARMUP_MS", 1000, 10_000, 200)
const GOAL = 100_000

// Shaped like real notifications: a payment session id as orderId, ms timestamp, short comment.
const payloads = Array.from({ length: 1000 }, (_, i) =>
  signWebhook(
    {
      merchantId: MERCHANT,
      orderId: `payses_01JBENCH${String(i).padStart(18, "0")}`,
      paylaterRef: `PL${100000 + i}`,
      status: ["success", "failed", "pending"][i % 3],
      timestamp: 1_760_000_000_000 + i,
      comments: i % 2 ? "Payment completed" : undefined,
    },
    SECRET
  )
)
const options = { expectedMerchantId: MERCHANT }

const verifyOne = (p) => verifyWebhook(p, SECRET, options).ok
// Just the two digests a verification cannot avoid: MD5 of the fields, HMAC of the received hash.
const digestsOnly = (p) => computeTxHash(p) === p.txHash && computeSignature(p.txHash, SECRET) === p.signature

/**
 * Runs `fn` over the payloads for `ms` of wall time (checked every 1,000 calls).
 * @returns {{ cpuRate: number, wallRate: number }} calls per CPU-second and per wall-second
 */
function spin(fn, ms) {
  let n = 0
  let ok = 0
  const cpu0 = process.cpuUsage()
  const start = process.hrtime.bigint()
  const limit = BigInt(ms) * 1_000_000n
  let elapsed = 0n
  while (elapsed < limit) {
    for (let i = 0; i < 1000; i++) {
      if (fn(payloads[i])) ok++
    }
    n += 1000
    elapsed = process.hrtime.bigint() - start
  }
  const cpu = process.cpuUsage(cpu0)
  // Every payload is genuine: anything else means the benchmark measures a failure path.
  if (ok !== n) throw new Error(`${n - ok} of ${n} genuine notifications failed verification`)
  return { cpuRate: n / ((cpu.user + cpu.system) / 1e6), wallRate: n / (Number(elapsed) / 1e9) }
}

function main() {
  const before = machine()
  spin(verifyOne, WARMUP_MS)
  spin(digestsOnly, WARMUP_MS / 2)
  const rounds = []
  const floor = []
  // Interleaved with the floor so both see the same machine.
  for (let r = 0; r < ROUNDS; r++) {
    rounds.push(spin(verifyOne, ROUND_MS))
    floor.push(spin(digestsOnly, ROUND_MS / 2))
  }
  const cpu = rounds.map((x) => x.cpuRate)
  const med = median(cpu)
  const wall = median(rounds.map((x) => x.wallRate))
  const floorMed = median(floor.map((x) => x.cpuRate))
  const fmt = (x) => Math.round(x).toLocaleString("en")
  console.log(`rounds (verifications per CPU-second): ${cpu.map(Math.round).join(", ")}`)
  console.log(`rounds (verifications per wall-second): ${rounds.map((x) => Math.round(x.wallRate)).join(", ")}`)
  report("verify", {
    goal: `> ${GOAL.toLocaleString("en")} verifications/s on one core`,
    met: med > GOAL,
    headline:
      `verifyWebhook: median ${fmt(med)}/s per CPU-second (${round(1e6 / med, 2)} us each; min ${fmt(Math.min(...cpu))}, max ${fmt(Math.max(...cpu))}) ` +
      `over ${ROUNDS} x ${ROUND_MS} ms rounds; wall-clock median ${fmt(wall)}/s; bare MD5+HMAC floor ${fmt(floorMed)}/s (${round(1e6 / floorMed, 2)} us)`,
    details: { cpuRates: cpu.map(Math.round), wallRates: rounds.map((x) => Math.round(x.wallRate)), median: Math.round(med), wallMedian: Math.round(wall), floorMedian: Math.round(floorMed), roundMs: ROUND_MS, machineAtStart: before },
  })
}

main()
