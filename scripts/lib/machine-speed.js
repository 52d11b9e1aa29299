// How fast one core of this machine is, so a run's times can be compared with another machine's:
// the work every PayLater notification costs (MD5 of its fields, HMAC-SHA256 of that hash), counted
// per second of this process's CPU time, like bench/verify.js's "bare MD5+HMAC floor" (the same
// two digests; BENCHMARKS.md gives that floor for the machine its figures were taken on).
const crypto = require("node:crypto")

const FIELDS = Array.from(
  { length: 1000 },
  (_, i) => `sandbox-merchant|payses_01JBENCH${String(i).padStart(18, "0")}|PL${100000 + i}|success|${1_760_000_000_000 + i}`
)

function digestsPerCpuSecond(ms) {
  let n = 0
  const cpu0 = process.cpuUsage()
  const start = Date.now()
  while (Date.now() - start < ms) {
    for (const fields of FIELDS) {
      const hash = crypto.createHash("md5").update(fields).digest("hex")
      crypto.createHmac("sha256", "sandbox-webhook-secret").update(hash).digest("hex")
    }
    n += FIELDS.length
  }
  const cpu = process.cpuUsage(cpu0)
  return n / ((cpu.user + cpu.system) / 1e6)
}

/** The median of three short rounds (about 0.6 s in all): digests per CPU-second of one core. */
function machineSpeed() {
  digestsPerCpuSecond(100)
  const rounds = [200, 200, 200].map(digestsPerCpuSecond).sort((a, b) => a - b)
  return Math.round(rounds[1])
}

module.exports = { machineSpeed }
