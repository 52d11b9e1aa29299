// Waits until a service answers over HTTP. Readiness is "it answers", never "some seconds passed":
// a slow machine only makes the wait longer, and a crashed service ends it at once.
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/**
 * @param {string} url
 * @param {{ timeoutMs?: number, ok?: (status: number) => boolean, exited?: () => string | null }} opts
 *   `exited` returns a reason once the process behind the URL has died (stop waiting then).
 */
async function waitForHttp(url, { timeoutMs = 180_000, ok = (s) => s < 500, exited = () => null } = {}) {
  const deadline = Date.now() + timeoutMs
  let last = "no answer yet"
  while (Date.now() < deadline) {
    const died = exited()
    if (died) throw new Error(`${url} will not answer: ${died}`)
    try {
      const res = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(5000) })
      await res.arrayBuffer()
      if (ok(res.status)) return res.status
      last = `HTTP ${res.status}`
    } catch (error) {
      last = error.cause?.code ?? error.message
    }
    await sleep(250)
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s (last: ${last})`)
}

module.exports = { waitForHttp }
