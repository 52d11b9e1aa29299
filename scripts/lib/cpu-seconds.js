// CPU-seconds this process has used so far: its own (every thread) and that of its child processes
// that have ended and been reaped (the kernel adds those to the parent's cutime/cstime, proc(5)),
// which includes theirs. Where there is no /proc, children count as 0.
const fs = require("node:fs")

// Linux's clock tick for /proc's times (USER_HZ): 100 on every kernel these machines run.
const TICKS_PER_SECOND = 100

function cpuSeconds() {
  const usage = process.cpuUsage()
  let children = 0
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8")
    // Fields after "(comm) ": state is field 3, cutime 16 and cstime 17.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    children = (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND
  } catch {
    // Not Linux.
  }
  return { own: (usage.user + usage.system) / 1e6, children }
}

module.exports = { cpuSeconds }
