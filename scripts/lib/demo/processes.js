// Starts the demo's child processes and, above all, stops them again.
//
// Each child gets its own process group (`detached: true`), because the things we start start
// children of their own (`medusa` forks, embedded tools spawn helpers): signalling the group
// (`kill(-pgid)`) reaches all of them, which signalling the pid alone would not. A group also keeps
// the terminal's Ctrl-C away from the children, so the demo decides the shutdown order itself.
const fs = require("node:fs")
const path = require("node:path")
const { spawn } = require("node:child_process")

const TAIL_LINES = 40

function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0)
    return true
  } catch (error) {
    return error.code === "EPERM"
  }
}

function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal)
  } catch {
    // Already gone.
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

class ChildFailedError extends Error {
  constructor(name, detail, tail) {
    super(`${name} ${detail}${tail ? `\n--- last lines of its output ---\n${tail}\n---` : ""}`)
    this.tail = tail
  }
}

class ProcessSupervisor {
  /** @param {{ logDir: string, verbose: boolean, write?: (s: string) => void }} opts */
  constructor(opts) {
    this.logDir = opts.logDir
    this.verbose = opts.verbose
    this.write = opts.write ?? ((s) => process.stdout.write(s))
    /** @type {Map<string, { child: import("node:child_process").ChildProcess, tail: string[], exited: Promise<{code: number|null, signal: string|null}>, expectedExit: boolean }>} */
    this.children = new Map()
    fs.mkdirSync(this.logDir, { recursive: true })
  }

  logFile(name) {
    return path.join(this.logDir, `${name}.log`)
  }

  /**
   * Starts `command args` in its own process group; output goes to `<logDir>/<name>.log` (and the
   * terminal when verbose). `onUnexpectedExit` runs if it ends while nobody asked it to.
   */
  start(name, command, args, { env, cwd, onUnexpectedExit } = {}) {
    // One log per service per run: the file always shows the current run only.
    const log = fs.createWriteStream(this.logFile(name), { flags: "w" })
    log.write(`\n===== ${new Date().toISOString()} ${command} ${args.join(" ")}\n`)
    const child = spawn(command, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] })
    const entry = { child, tail: [], lineListeners: new Set(), expectedExit: false, exited: null }
    const onData = (chunk) => {
      log.write(chunk)
      for (const line of chunk.toString().split("\n")) {
        if (!line.trim()) continue
        entry.tail.push(line)
        for (const listener of entry.lineListeners) listener(line)
      }
      if (entry.tail.length > TAIL_LINES) entry.tail.splice(0, entry.tail.length - TAIL_LINES)
      if (this.verbose) {
        this.write(chunk.toString().replace(/^(?=.)/gm, `  ${name} | `))
      }
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    entry.exited = new Promise((resolve) => {
      child.once("error", (error) => {
        entry.tail.push(String(error))
        resolve({ code: null, signal: null, error })
      })
      child.once("exit", (code, signal) => resolve({ code, signal }))
    }).then((result) => {
      log.end()
      if (!entry.expectedExit && onUnexpectedExit) onUnexpectedExit(result)
      return result
    })
    this.children.set(name, entry)
    return entry
  }

  /**
   * Resolves with the first output line of `name` matching `pattern` (e.g. a "ready" line), or
   * rejects when the process exits first.
   */
  waitForLine(name, pattern) {
    const entry = this.children.get(name)
    return new Promise((resolve, reject) => {
      const listener = (line) => {
        const found = pattern.exec(line)
        if (!found) return
        entry.lineListeners.delete(listener)
        resolve(found)
      }
      entry.lineListeners.add(listener)
      entry.exited.then(({ code, signal }) =>
        reject(new ChildFailedError(name, `exited (${signal ?? `code ${code}`}) before it was ready`, entry.tail.join("\n")))
      )
    })
  }

  tail(name) {
    return this.children.get(name)?.tail.join("\n") ?? ""
  }

  /** Runs a command to completion (migrations, seeding); rejects with its last output on failure. */
  async run(name, command, args, opts = {}) {
    const entry = this.start(name, command, args, opts)
    entry.expectedExit = true
    const { code, signal, error } = await entry.exited
    this.children.delete(name)
    if (code !== 0) {
      const how = error ? `could not start (${error.message})` : signal ? `was killed by ${signal}` : `exited with code ${code}`
      throw new ChildFailedError(name, `${how}; full log: ${path.relative(process.cwd(), this.logFile(name))}`, entry.tail.join("\n"))
    }
    return entry.tail
  }

  /** Process ids (= group ids) of everything still running, for tests and for `ps` checks. */
  pids() {
    return [...this.children.entries()].map(([name, e]) => ({ name, pid: e.child.pid }))
  }

  /**
   * Stops children in reverse start order: SIGTERM to the whole group, up to `graceMs` to finish
   * (Medusa closes its HTTP server and DB pool), then SIGKILL for whatever is left in the group.
   */
  async stopAll({ graceMs = 10_000 } = {}) {
    const entries = [...this.children.entries()].reverse()
    for (const [name, entry] of entries) {
      entry.expectedExit = true
      const pgid = entry.child.pid
      if (!pgid) continue
      signalGroup(pgid, "SIGTERM")
      const deadline = Date.now() + graceMs
      while (groupAlive(pgid) && Date.now() < deadline) await sleep(100)
      if (groupAlive(pgid)) {
        this.write(`  ${name} did not stop within ${graceMs / 1000} s: killing it\n`)
        signalGroup(pgid, "SIGKILL")
        while (groupAlive(pgid)) await sleep(50)
      }
      this.children.delete(name)
    }
  }

  /** Last resort on process exit (synchronous, so it works inside an 'exit' handler). */
  killAllNow() {
    for (const entry of this.children.values()) {
      entry.expectedExit = true
      if (entry.child.pid) signalGroup(entry.child.pid, "SIGKILL")
    }
    this.children.clear()
  }
}

module.exports = { ProcessSupervisor, ChildFailedError, groupAlive }
