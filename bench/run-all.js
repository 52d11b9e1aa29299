#!/usr/bin/env node
// Runs every benchmark, one after another (each boots and stops its own server: no run leaves
// deferred work behind for the next), then prints one summary table from their JSON results.
//
//   node bench/run-all.js                      all of them
//   node bench/run-all.js verify checkout-time only these
//   node bench/run-all.js --smoke              all of them with tiny counts (BENCH_SMOKE=1): proves each
//                                              still runs to its figure; nothing is timed or judged.
//                                              Ends with "N passed, N failed"; exit 1 if one failed.
//
// In smoke mode the benchmarks that can share a server run in one process on one stack booted once
// (bench/lib/smoke-shared.js); the memory benchmark (its own 1 GiB container) and the fault
// campaign (it kills its server, on a database of its own) still boot their own.
const fs = require("node:fs")
const path = require("node:path")
const { spawn } = require("node:child_process")

const args = process.argv.slice(2)
const smoke = args.includes("--smoke")
// Before ./lib/report is loaded: it picks the results folder by smoke mode.
if (smoke) process.env.BENCH_SMOKE = "1"
const { RESULTS_DIR, machine } = require("./lib/report")
const { selfCpu } = require("../scripts/lib/proc-cpu")

const ALL = ["verify", "outbound-calls", "checkout-time", "webhook-ack", "webhook-memory", "checkout-storm", "settlement", "reconciliation-backlog", "funnel", "fault-campaign"]
// Those that run on the smoke run's shared stack (the others need a server of their own, or, verify,
// none at all).
const SHARED_IN_SMOKE = new Set(["outbound-calls", "checkout-time", "webhook-ack", "checkout-storm", "settlement", "reconciliation-backlog", "funnel"])
const named = args.filter((a) => a !== "--smoke")
const wanted = named.length ? named : ALL
const unknown = wanted.filter((n) => !ALL.includes(n))
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(", ")}; choose from ${ALL.join(", ")}`)
  process.exit(2)
}
// A smoke run that hangs is a failure, not a stuck CI job (the slowest takes about a minute; the
// fault campaign restarts the server about seven times, ~3-5 minutes on a busy 2-core machine, and
// its final wait may add the owner decision's 5-minute bound and two job periods for an order a
// kill left half-made). The shared stack's group: each of its benchmarks has 5 minutes in there.
const SMOKE_LIMIT_MS = 5 * 60_000
const SMOKE_LIMIT_OVERRIDES_MS = { "fault-campaign": 20 * 60_000, "smoke-shared": 5 * 60_000 * SHARED_IN_SMOKE.size }

let current = null
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    // The child stops its own server on this signal (bench/lib/stack.js); then we exit.
    if (current) current.kill(signal)
    else process.exit(130)
  })
}

/** Runs bench/<name>.js, or with `names` the shared stack's group of them. */
function run(name, names = []) {
  return new Promise((resolve) => {
    const started = Date.now()
    const cpuAtStart = selfCpu()?.children ?? null
    let timedOut = false
    const script = name === "smoke-shared" ? path.join(__dirname, "lib", "smoke-shared.js") : path.join(__dirname, `${name}.js`)
    current = spawn(process.execPath, [script, ...names], { stdio: "inherit" })
    const timer = smoke
      ? setTimeout(() => {
          timedOut = true
          current?.kill("SIGTERM")
        }, SMOKE_LIMIT_OVERRIDES_MS[name] ?? SMOKE_LIMIT_MS)
      : null
    current.on("exit", (code, signal) => {
      current = null
      if (timer) clearTimeout(timer)
      if (signal && !timedOut) process.exit(130)
      // What it cost the machine: the benchmark's process and every process it started and stopped
      // (servers, PostgreSQL when embedded), whatever ran beside it.
      const cpuNow = selfCpu()?.children ?? null
      const cpu = cpuAtStart === null || cpuNow === null ? null : Math.round(cpuNow - cpuAtStart)
      resolve({ code: timedOut ? 1 : code, timedOut, seconds: Math.round((Date.now() - started) / 1000), cpu })
    })
  })
}

async function main() {
  const at = machine()
  console.log(`benchmarks${smoke ? " (smoke)" : ""}: ${wanted.join(", ")}; ${at.cpus} cpus, load ${at.loadavg.join(", ")}, ${at.date}`)
  const rows = []
  // CPU-seconds of every run (the shared stack's group counted once, not once per row).
  let cpuTotal = 0
  const resultOf = (name) => {
    const file = path.join(RESULTS_DIR, `${name}.json`)
    return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : null
  }
  for (const name of wanted) fs.rmSync(path.join(RESULTS_DIR, `${name}.json`), { force: true })
  const group = smoke ? wanted.filter((name) => SHARED_IN_SMOKE.has(name)) : []
  if (group.length) {
    console.log(`\n===== on one shared stack: ${group.join(", ")}`)
    // Each of the group counts by its own result file: one that failed wrote none.
    const { seconds, cpu, timedOut } = await run("smoke-shared", group)
    cpuTotal += cpu ?? 0
    for (const name of group) rows.push({ name, seconds, cpu, shared: true, result: resultOf(name), timedOut })
  }
  for (const name of wanted.filter((n) => !group.includes(n))) {
    console.log(`\n===== ${name}${smoke ? " (smoke)" : ""}`)
    const { code, seconds, cpu, timedOut } = await run(name)
    cpuTotal += cpu ?? 0
    // A run that reported and still exited non-zero (the fault campaign's violations) failed: its
    // headline (with the seed that replays it) goes on the verdict line, the one CI's log keeps.
    rows.push({ name, seconds, cpu, result: code === 0 ? resultOf(name) : null, reported: code === 0 ? null : resultOf(name), timedOut })
  }
  console.log(`\n${"=".repeat(100)}\nSUMMARY${smoke ? " (smoke: tiny counts, figures are not measurements)" : ""} (${new Date().toISOString()}, load now ${machine().loadavg.join(", ")})`)
  for (const { name, seconds, cpu, result, reported, timedOut, shared } of rows) {
    const verdict = !result ? (timedOut ? "TIMED OUT" : reported ? "FAILED" : "FAILED TO RUN") : smoke ? "ran" : result.met ? "met" : "MISSED"
    const why = reported?.headline ? `: ${reported.headline}` : ""
    const took = cpu === null ? `${seconds} s` : `${seconds} s, ${cpu} CPU-s`
    console.log(`\n${name.padEnd(15)} ${verdict.padEnd(13)} (${shared ? `shared stack, ${took} for the group` : took})${why}`)
    if (result) console.log(`  goal: ${result.goal}\n  ${result.headline}`)
  }
  console.log(`\nCPU-seconds used by the benchmarks' processes and those they started: ${cpuTotal}`)
  const failed = rows.filter((r) => !r.result).length
  if (smoke) console.log(`\n${rows.length - failed} passed, ${failed} failed`)
  process.exitCode = failed ? 1 : 0
}

main()
