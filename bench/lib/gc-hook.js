// Preloaded into the Medusa server by the memory benchmark (node --expose-gc --require <this>):
// on SIGUSR2 it runs a full garbage collection and writes the process's memory figures to
// $BENCH_GC_REPORT, so the benchmark can measure what is really retained. Nothing else changes.
const fs = require("node:fs")
const v8 = require("node:v8")

const target = process.env.BENCH_GC_REPORT
if (target && typeof global.gc === "function") {
  process.on("SIGUSR2", () => {
    // Twice: the first pass can leave objects whose finalizers free more on the second.
    global.gc()
    global.gc()
    const rssKb = Number(/^VmRSS:\s+(\d+)/m.exec(fs.readFileSync("/proc/self/status", "utf8"))?.[1])
    const tmp = `${target}.${process.pid}.tmp`
    fs.writeFileSync(tmp, JSON.stringify({ at: Date.now(), vmRssKb: rssKb, heapSizeLimit: v8.getHeapStatistics().heap_size_limit, ...process.memoryUsage() }))
    fs.renameSync(tmp, target)
  })
}
