// A memory-limited container for the bench server, made of the same kernel part Docker and every
// hosting platform use (a cgroup with a memory limit), so a benchmark can measure what a merchant's
// 1 GB container sees: Node reads the limit at start (process.constrainedMemory()) and sizes V8's
// heap to it, and the kernel kills the process if it goes over. Needs write access to the cgroup
// file system (root on these machines); where there is none, `memoryContainer` says why instead.
const fs = require("node:fs")
const path = require("node:path")

const readNumber = (file) => Number(fs.readFileSync(file, "utf8").trim())
const counter = (file, key) => Number(new RegExp(`^${key} (\\d+)$`, "m").exec(fs.readFileSync(file, "utf8"))?.[1] ?? NaN)
// A figure the kernel does not keep (older kernels have no memory.peak) is NaN, not a crash.
const orNaN = (read) => {
  try {
    return read()
  } catch {
    return NaN
  }
}

/** Where this process's own cgroup is, in cgroup v1's memory hierarchy or in cgroup v2. */
function ownCgroup() {
  const lines = fs.readFileSync("/proc/self/cgroup", "utf8").split("\n")
  const v1 = lines.map((l) => /^\d+:([^:]*\bmemory\b[^:]*):(.*)$/.exec(l)).find(Boolean)
  if (v1 && fs.existsSync("/sys/fs/cgroup/memory")) return { version: 1, dir: path.join("/sys/fs/cgroup/memory", v1[2]) }
  const v2 = lines.map((l) => /^0::(.*)$/.exec(l)).find(Boolean)
  if (v2 && fs.existsSync("/sys/fs/cgroup/cgroup.controllers")) return { version: 2, dir: path.join("/sys/fs/cgroup", v2[1]) }
  return null
}

/**
 * A new cgroup under this process's own, limited to `limitMiB`, or `{ unavailable: reason }`.
 * @returns {{ dir: string, version: 1|2, limitMiB: number, wrap: (cmd: string, args: string[]) => [string, string[]],
 *            peakMiB: () => number, oomKills: () => number, remove: () => void } | { unavailable: string }}
 */
function memoryContainer(name, limitMiB) {
  let own
  try {
    own = ownCgroup()
  } catch (error) {
    return { unavailable: `cannot read /proc/self/cgroup (${error.message})` }
  }
  if (!own) return { unavailable: "no cgroup memory controller mounted" }
  const dir = path.join(own.dir, `${name}-${process.pid}`)
  const files =
    own.version === 1
      ? { limit: "memory.limit_in_bytes", peak: "memory.max_usage_in_bytes", oom: ["memory.oom_control", "oom_kill"] }
      : { limit: "memory.max", peak: "memory.peak", oom: ["memory.events", "oom_kill"] }
  try {
    fs.mkdirSync(dir)
    fs.writeFileSync(path.join(dir, files.limit), String(limitMiB * 1048576))
    if (readNumber(path.join(dir, files.limit)) !== limitMiB * 1048576) throw new Error("the limit did not hold")
  } catch (error) {
    try {
      fs.rmdirSync(dir)
    } catch {}
    return { unavailable: `cannot make a ${limitMiB} MiB cgroup under ${own.dir} (${error.code ?? error.message})` }
  }
  return {
    dir,
    version: own.version,
    limitMiB,
    // The shell joins the cgroup, then becomes the command (exec): same pid, and Node starts inside
    // the limit, which is when it sizes its heap.
    wrap: (cmd, args) => ["/bin/sh", ["-c", `echo $$ > "${path.join(dir, "cgroup.procs")}" && exec "$0" "$@"`, cmd, ...args]],
    // Includes the page cache the server's own log writes cause, as a container's figure does.
    peakMiB: () => orNaN(() => readNumber(path.join(dir, files.peak)) / 1048576),
    oomKills: () => orNaN(() => counter(path.join(dir, files.oom[0]), files.oom[1])),
    remove: () => {
      try {
        fs.rmdirSync(dir) // only once its processes are gone
      } catch {}
    },
  }
}

module.exports = { memoryContainer }
