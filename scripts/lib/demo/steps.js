// Numbered progress lines with timings, so a person watching `npm run demo` always knows what is
// happening, how long it took, and which step to look at when something fails.
function formatMs(ms) {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`
}

function createSteps(total, write = (line) => process.stdout.write(`${line}\n`)) {
  const startedAt = Date.now()
  let n = 0

  /** Runs `fn` as the next numbered step; returns what it returns, rethrows what it throws. */
  async function step(title, fn) {
    n += 1
    const label = `[${n}/${total}] ${title}`
    write(`${label} ...`)
    const t0 = Date.now()
    try {
      const result = await fn()
      const note = result && typeof result === "object" && typeof result.note === "string" ? ` (${result.note})` : ""
      write(`${label}: done in ${formatMs(Date.now() - t0)}${note}`)
      return result
    } catch (error) {
      write(`${label}: FAILED after ${formatMs(Date.now() - t0)}`)
      throw error
    }
  }

  return { step, elapsed: () => Date.now() - startedAt, formatMs }
}

module.exports = { createSteps, formatMs }
