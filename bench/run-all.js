#!/usr/bin/env node
// Runs every benchmark, one after another (each boots and stops its own server: no run leaves
// deferred work behind for the next), then prints one summary table from their JSON results.
//
//   node bench/run-all.js                      all five
//   node bench/run-all.js verify checkout-time only these
const fs = require("node:fs")
const path = require("node:path")
const { spawn } = require("node:child_process")
const { RESULTS_DIR, machine } = require("./lib/report")

const ALL = ["verify", "outbound-calls", "checkout-time", "webhook-ack", "webhook-memory", "settlement"]
const wanted = process.argv.slice(2).length ? process.argv.slice(2) : ALL
const unknown = wanted.filter((n) => !ALL.includes(n))
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(", ")}; choose from ${ALL.join(", ")}`)
  process.exit(2)
}

let current = null
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    // The child stops its own server on this signal (bench/lib/stack.js); then we exit.
    if (current) current.kill(signal)
    else process.exit(130)
  })
}

function run(name) {
  return new Promise((resolve) => {
    const started = Date.now()
    current = spawn(process.execPath, [path.join(__dirname, `${name}.js`)], { stdio: "inherit" })
    current.on("exit", (code, signal) => {
      current = null
      if (signal) process.exit(130)
      resolve({ code, seconds: Math.round((Date.now() - started) / 1000) })
    })
  })
}

async function main() {
  const at = machine()
  console.log(`benchmarks: ${wanted.join(", ")}; ${at.cpus} cpus, load ${at.loadavg.join(", ")}, ${at.date}`)
  const rows = []
  for (const name of wanted) {
    const file = path.join(RESULTS_DIR, `${name}.json`)
    fs.rmSync(file, { force: true })
    console.log(`\n===== ${name}`)
    const { code, seconds } = await run(name)
    const result = code === 0 && fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : null
    rows.push({ name, seconds, result })
  }
  console.log(`\n${"=".repeat(100)}\nSUMMARY (${new Date().toISOString()}, load now ${machine().loadavg.join(", ")})`)
  for (const { name, seconds, result } of rows) {
    const verdict = !result ? "FAILED TO RUN" : result.met ? "met" : "MISSED"
    console.log(`\n${name.padEnd(15)} ${verdict.padEnd(13)} (${seconds} s)`)
    if (result) console.log(`  goal: ${result.goal}\n  ${result.headline}`)
  }
  process.exitCode = rows.every((r) => r.result) ? 0 : 1
}

main()
