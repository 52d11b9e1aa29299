// The fault campaign's Medusa process: killed (at random, or by a named crash point) and started again.
const { sleep } = require("../proc")
const { registerTs } = require("../ts")

registerTs()
const { CRASH_LINE_PREFIX } = require("../../../src/faults/crash-point.ts")

/**
 * The Medusa process, killed and started again. Every exit is classified: our SIGKILL (random), a
 * named crash point (its marker line is the last thing the process wrote), or unexpected (counted:
 * a server that dies by itself under faults is a finding). After every death the server starts
 * again at once, armed with the next named point while any is left (then the traffic that reaches
 * it is started), so each named kill costs one restart.
 */
function serverLifecycle(stack, { queue, inFlight, onArmed, figures, say }) {
  let current = { server: stack.server, name: "medusa", armed: null, ourKill: false, armedAt: 0 }
  let index = 0
  let restarting = null
  let finishing = false

  const probeLocks = async (sessions) => {
    // Sessions a shopper was settling when the process died: each must answer within the longest
    // lock wait (completion's 30 s): no lock of the dead process blocks it.
    for (const sessionId of sessions) {
      const t0 = Date.now()
      try {
        const res = await fetch(`${stack.backend}/paylater/return/${encodeURIComponent(sessionId)}?outcome=success`, { redirect: "manual", signal: AbortSignal.timeout(60_000) })
        await res.arrayBuffer()
      } catch {
        // no answer within a minute: over the timeout below
      }
      const ms = Date.now() - t0
      figures.lock_probe.probes++
      figures.lock_probe.max_ms = Math.max(figures.lock_probe.max_ms, ms)
      if (ms > 30_000) figures.lock_probe.over_timeout++
    }
  }

  const start = async (armed) => {
    index++
    const name = `medusa-${index}`
    const t0 = Date.now()
    const { server } = await stack.startServer(armed ? { PAYLATER_CRASH_POINTS: `${armed}@1` } : {}, name)
    figures.restarts++
    figures.restart_seconds.push((Date.now() - t0) / 1000)
    current = { server, name, armed, ourKill: false, armedAt: Date.now() }
    watch(current)
    if (armed) {
      say(`armed ${armed}`)
      onArmed(armed)
    }
  }

  /** The crash point a dead process's output names, if it died at one. */
  const crashPointIn = (server) => {
    const marker = server.tail.find((l) => l.startsWith(CRASH_LINE_PREFIX))
    return marker ? marker.split(" ")[1] : null
  }

  /** Same, for a process that died while starting, once its output has been read to the end. */
  const crashPointOfFailedStart = async (server) => {
    await server.exited
    await sleep(200)
    return crashPointIn(server)
  }

  const countNamedKill = (point) => {
    figures.named_crash_points[point]++
    figures.named_kills++
    figures.kills++
  }

  const restartNext = (inFlightAtDeath) => {
    restarting = (async () => {
      let point = finishing ? null : (queue.shift() ?? null)
      let failures = 0
      for (;;) {
        try {
          await start(point)
          break
        } catch (error) {
          // Work the server resumes at boot (a redelivered webhook, a due job) may reach the armed
          // point before /health answers: that is the named kill, one restart early. Anything else
          // gets one more try, then ends the campaign.
          const reached = error.server && point ? await crashPointOfFailedStart(error.server) : null
          if (reached) {
            countNamedKill(reached)
            say(`killed at named crash point ${reached} while starting`)
            point = finishing ? null : (queue.shift() ?? null)
            continue
          }
          if (++failures > 1) throw error
          say(`restart failed (${error.message.split("\n")[0]}); trying once more`)
        }
      }
      probeLocks(inFlightAtDeath.slice(0, 3)).catch(() => undefined)
    })()
    return restarting
  }

  const watch = (entry) => {
    entry.server.exited.then(({ signal, code }) => {
      const inFlightAtDeath = [...inFlight]
      const point = crashPointIn(entry.server)
      entry.dead = true
      if (entry.stopped) return
      stack.supervisor.children.delete(entry.name)
      if (point) {
        countNamedKill(point)
        say(`killed at named crash point ${point}`)
      } else if (entry.ourKill) {
        figures.random_kills++
        figures.kills++
      } else {
        figures.unexpected_exits++
        say(`server exited by itself (${signal ?? `code ${code}`}); see ${stack.supervisor.logFile(entry.name)}`)
      }
      restartNext(inFlightAtDeath)
    })
  }
  watch(current)

  const kill = async () => {
    const entry = current
    if (entry.dead) return
    entry.ourKill = true
    try {
      process.kill(-entry.server.child.pid, "SIGKILL")
    } catch {
      // already gone
    }
    await entry.server.exited
    await sleep(0)
    await restarting
  }

  return {
    /** Waits for the server to be up; true while a named point is armed. */
    async ready() {
      await restarting
      return !!current.armed
    },
    armedFor: () => (current.armed ? Date.now() - current.armedAt : 0),
    armed: () => current.armed,
    /** A random kill. An armed point whose traffic never came is armed again later. */
    async randomKill() {
      await restarting
      if (current.armed) queue.push(current.armed)
      await kill()
    },
    /** No more arming: the server ends up running, disarmed. */
    async finish() {
      finishing = true
      await restarting
      if (current.armed) await kill()
      await restarting
    },
    stop() {
      current.stopped = true
    },
  }
}

module.exports = { serverLifecycle }
