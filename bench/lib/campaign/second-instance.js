// The campaign's two-instance mode: a Redis of its own (never the machine's 6379, which other people
// use: this one is stopped and started on purpose) and a second `medusa start` on the same database
// and Redis, SIGKILLed and started again at random while the first one serves.
const net = require("node:net")
const { spawn } = require("node:child_process")
const { freePort } = require("../../../scripts/lib/database")

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

function ping(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port })
    const done = (ok) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(1000, () => done(false))
    socket.on("error", () => done(false))
    socket.on("connect", () => socket.write("PING\r\n"))
    socket.on("data", (chunk) => done(chunk.toString().startsWith("+PONG")))
  })
}

/** redis-server on a free port, no persistence; `restart()` stops it (every connection drops) and starts it again. */
async function startOwnRedis({ bin = "/usr/bin/redis-server", downMs = 3000 } = {}) {
  const port = await freePort()
  let child = null
  const start = async () => {
    child = spawn(bin, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" })
    for (let i = 0; i < 100 && !(await ping(port)); i++) await sleep(100)
    if (!(await ping(port))) throw new Error(`redis-server did not answer on port ${port}`)
  }
  const stop = async () => {
    if (!child || child.exitCode !== null) return
    const exited = new Promise((r) => child.once("exit", r))
    child.kill("SIGKILL")
    await exited
  }
  await start()
  process.on("exit", () => child?.kill("SIGKILL"))
  return {
    url: `redis://127.0.0.1:${port}`,
    /** Killed (nothing saved: every key, lock and queued job is gone, as after a crash), then started again. */
    async restart() {
      await stop()
      await sleep(downMs)
      await start()
    },
    stop,
  }
}

/**
 * The second instance, killed at random and started again by the caller's schedule.
 * @returns {{ backend: string, kill(): Promise<void>, start(): Promise<void>, alive(): boolean }}
 */
async function startSecondInstance(stack) {
  const port = await freePort()
  let entry = null
  let index = 0
  const start = async () => {
    index++
    const { server } = await stack.startServer({}, `medusa-b-${index}`, port)
    entry = server
  }
  await start()
  return {
    backend: `http://localhost:${port}`,
    alive: () => !!entry && entry.child.exitCode === null && entry.child.signalCode === null,
    async kill() {
      if (!entry) return
      try {
        process.kill(-entry.child.pid, "SIGKILL")
      } catch {
        // already gone
      }
      await entry.exited
    },
    start,
  }
}

module.exports = { startOwnRedis, startSecondInstance }
