// The several-instances test needs a Redis. Use the one named by REDIS_URL or the usual local one
// (127.0.0.1:6379) when it answers; otherwise start Debian's redis-server on a free port for the
// run, installing the package when we are root (as for Chromium), so a machine with only Node works.
const fs = require("node:fs")
const net = require("node:net")
const { execSync, spawn } = require("node:child_process")
const { freePort } = require("./database")

function ping(url, timeoutMs = 1000) {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) || 6379 })
    const done = (ok) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(timeoutMs, () => done(false))
    socket.on("error", () => done(false))
    socket.on("connect", () => socket.write("PING\r\n"))
    socket.on("data", (chunk) => done(chunk.toString().startsWith("+PONG")))
  })
}

function findRedisServer() {
  return ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].find((p) => fs.existsSync(p)) ?? null
}

async function ensureRedis(log = console.log) {
  const candidate = process.env.REDIS_URL || "redis://127.0.0.1:6379"
  if (await ping(candidate)) {
    log(`Redis: using ${candidate}`)
    return { url: candidate, stop: async () => {} }
  }
  let bin = findRedisServer()
  if (!bin) {
    const isRoot = typeof process.getuid === "function" && process.getuid() === 0
    if (!isRoot) {
      throw new Error(`Redis is not reachable at ${candidate}: start one, set REDIS_URL, or install redis-server`)
    }
    log("Redis: not reachable and not installed, installing Debian's redis-server package (one time)...")
    execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null", {
      stdio: ["ignore", "inherit", "inherit"],
      shell: "/bin/bash",
    })
    bin = findRedisServer()
    if (!bin) throw new Error("redis-server install finished but no redis-server binary was found")
  }
  const port = await freePort()
  const child = spawn(bin, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: "ignore",
  })
  const url = `redis://127.0.0.1:${port}`
  for (let i = 0; i < 50 && !(await ping(url)); i++) {
    await new Promise((r) => setTimeout(r, 100))
  }
  if (!(await ping(url))) {
    child.kill("SIGKILL")
    throw new Error(`redis-server did not answer on ${url}`)
  }
  log(`Redis: started redis-server for this run on ${url}`)
  return {
    url,
    stop: async () => {
      child.kill("SIGTERM")
    },
  }
}

module.exports = { ensureRedis }
