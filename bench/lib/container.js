// A memory-limited container for the bench server, made of the same kernel part Docker and every
// hosting platform use (a cgroup with a memory limit), so a benchmark can measure what a merchant's
// 1 GB container sees: Node reads the limit at start (process.constrainedMemory()) and sizes V8's
// heap to it, and the kernel kills the process if it goes over.
//
// Needs write access to the cgroup file system (root on these machines, cgroup v1). On cgroup v2 the
// memory controller must be delegated to the benchmark's own cgroup (e.g. a systemd scope with
// Delegate=yes); v2 lets a cgroup that holds processes enable no controller for its children, so
// this does not try. Where none of that holds, `memoryContainer` says why instead.
const fs = require("node:fs")
const path = require("node:path")

const readNumber = (file) => Number(fs.readFileSync(file, "utf8").trim())
const counter = (file, key) => Number(new RegExp(`^${key} (\\d+)$`, "m").exec(fs.readFileSync(file, "utf8"))?.[1] ?? NaN)
// A figure the kernel does not keep (older kernels have no memory.peak nor oom_kill) is NaN.
const orNaN = (read) => {
  try {
    return read()
  } catch {
    return NaN
  }
}

/**
 * Where this process's own cgroup is, in cgroup v1's memory hierarchy or in cgroup v2. Inside a
 * container without its own cgroup namespace /proc/self/cgroup names a host path the mount does not
 * show: the mount's root is then the container's own cgroup.
 */
function ownCgroup() {
  const lines = fs.readFileSync("/proc/self/cgroup", "utf8").split("\n")
  const pick = (root, sub) => (fs.existsSync(path.join(root, sub)) ? path.join(root, sub) : root)
  const v1 = lines.map((l) => /^\d+:([^:]*\bmemory\b[^:]*):(.*)$/.exec(l)).find(Boolean)
  if (v1 && fs.existsSync("/sys/fs/cgroup/memory")) return { version: 1, dir: pick("/sys/fs/cgroup/memory", v1[2]) }
  const v2 = lines.map((l) => /^0::(.*)$/.exec(l)).find(Boolean)
  if (v2 && fs.existsSync("/sys/fs/cgroup/cgroup.controllers")) return { version: 2, dir: pick("/sys/fs/cgroup", v2[1]) }
  return null
}

/** Removes a cgroup directory once its processes are gone; false while it still holds some. */
function removeCgroup(dir) {
  try {
    fs.rmdirSync(dir)
    return true
  } catch (error) {
    return error.code === "ENOENT"
  }
}

/**
 * A new cgroup under this process's own, limited to `limitMiB`, or `{ unavailable: reason }`.
 * Removed by `remove()`, and at the latest when this process exits (Ctrl-C included).
 * @returns {{ dir: string, version: 1|2, limitMiB: number, wrap: (cmd: string, args: string[]) => [string, string[]],
 *            peakMiB: () => number, oomKills: () => number, killed: () => boolean, remove: () => void } | { unavailable: string }}
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
    removeCgroup(dir) // left by an earlier run whose pid this one reuses
    fs.mkdirSync(dir)
    fs.writeFileSync(path.join(dir, files.limit), String(limitMiB * 1048576))
    if (readNumber(path.join(dir, files.limit)) !== limitMiB * 1048576) throw new Error("the limit did not hold")
  } catch (error) {
    removeCgroup(dir)
    const hint = own.version === 2 ? "; on cgroup v2 the memory controller must be delegated to this process's cgroup" : ""
    return { unavailable: `cannot make a ${limitMiB} MiB cgroup under ${own.dir} (${error.code ?? error.message})${hint}` }
  }
  const remove = () => removeCgroup(dir)
  process.once("exit", remove) // Ctrl-C ends the benchmark through process.exit (bench/lib/stack.js)
  const oomKills = () => orNaN(() => counter(path.join(dir, files.oom[0]), files.oom[1]))
  return {
    dir,
    version: own.version,
    limitMiB,
    // The shell joins the cgroup, then becomes the command (exec): same pid, and Node starts inside
    // the limit, which is when it sizes its heap. Paths travel as arguments, never inside the script.
    wrap: (cmd, args) => ["/bin/sh", ["-c", 'echo $$ > "$0" && exec "$@"', path.join(dir, "cgroup.procs"), cmd, ...args]],
    // What the kernel charges this cgroup, page cache of the server's own log writes included. Pages
    // first read by another cgroup (the node binary, shared code) stay charged there: this can be
    // below the process's RSS, so RSS is the figure the benchmarks judge.
    peakMiB: () => orNaN(() => readNumber(path.join(dir, files.peak)) / 1048576),
    oomKills,
    /** The kernel killed something in the container for memory (NaN, unknown, counts as not). */
    killed: () => oomKills() > 0,
    remove,
  }
}

module.exports = { memoryContainer }
