// Refuse to start when a port is taken, naming the service and the variable that moves it. Without
// this check the failure would surface later as an obscure EADDRINUSE from a child process.
const net = require("node:net")

function canBind(port, host) {
  return new Promise((resolve) => {
    const server = net.createServer()
    server.once("error", (error) => resolve(error.code === "EADDRNOTAVAIL" || error.code === "EAFNOSUPPORT"))
    // Not `exclusive: false` tricks: a plain listen is exactly what the real service will do.
    server.listen({ port, host }, () => server.close(() => resolve(true)))
  })
}

class PortTakenError extends Error {}

/** @param {{ name: string, port: number, envVar: string }[]} wanted */
async function assertPortsFree(wanted) {
  const seen = new Map()
  for (const w of wanted) {
    if (seen.has(w.port)) {
      throw new PortTakenError(`Cannot start the demo: ${seen.get(w.port).envVar} and ${w.envVar} are both ${w.port}`)
    }
    seen.set(w.port, w)
  }
  const taken = []
  for (const w of wanted) {
    // Both stacks: a service may bind 127.0.0.1 only (the sandbox) or :: (Medusa, the storefront).
    const free = (await canBind(w.port, "127.0.0.1")) && (await canBind(w.port, "::"))
    if (!free) taken.push(w)
  }
  if (taken.length) {
    const lines = taken.map(
      (w) => `  - port ${w.port} (${w.name}) is already in use: stop whatever holds it, or set ${w.envVar}=<another port>`
    )
    throw new PortTakenError(
      `Cannot start the demo:\n${lines.join("\n")}\n  (is another \`npm run demo\` still running? \`ss -ltnp | grep <port>\` shows who holds a port)`
    )
  }
}

module.exports = { assertPortsFree, PortTakenError }
