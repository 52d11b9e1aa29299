// The CPU times the kernel keeps for a process (/proc/<pid>/stat, proc(5)), in seconds: its own
// (utime + stime, every thread) and that of its child processes that have ended and been reaped
// (cutime + cstime, which include theirs). Linux only.
const fs = require("node:fs")

// Linux's clock tick for /proc's times (USER_HZ): 100 on every kernel these machines run.
const TICKS_PER_SECOND = 100

/** `pid`'s parent and CPU-seconds; throws when there is no such process (or no /proc). */
function procCpu(pid = "self") {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
  // Field 2 (comm) may contain spaces: count from its closing parenthesis. fields[0] is field 3
  // (state); ppid is field 4, utime 14, stime 15, cutime 16, cstime 17.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return {
    parent: Number(fields[1]),
    own: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND,
    children: (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND,
  }
}

/** This process's CPU-seconds so far, or null where there is no /proc (a figure, never a failure). */
function selfCpu() {
  try {
    return procCpu()
  } catch {
    return null
  }
}

module.exports = { procCpu, selfCpu }
