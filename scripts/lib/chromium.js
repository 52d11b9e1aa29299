// The browser tests drive Debian's Chromium (never a downloaded browser build). On a fresh machine it
// is installed from Debian's packages when we are root; otherwise we say exactly what to run.
const fs = require("node:fs")
const { execSync } = require("node:child_process")

const CANDIDATES = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"]

function findChromium() {
  return CANDIDATES.find((p) => p && fs.existsSync(p)) ?? null
}

function ensureChromium(log = console.log) {
  const found = findChromium()
  if (found) return found
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0
  if (!isRoot) {
    throw new Error(
      "Chromium is required for the browser tests: install Debian's package (sudo apt-get install -y chromium) or set CHROMIUM_PATH"
    )
  }
  log("Chromium: not found, installing Debian's chromium package (one time)...")
  execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null", {
    stdio: ["ignore", "inherit", "inherit"],
    shell: "/bin/bash",
  })
  const installed = findChromium()
  if (!installed) throw new Error("Chromium install finished but no chromium binary was found")
  return installed
}

// One set of flags for every browser test: headless Debian Chromium as root in a container (no
// sandbox, no GPU) that never calls home (no sync, updates or background requests) and speaks plain
// HTTP/1.1 to localhost (no QUIC).
const LAUNCH_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
]

/** Options for playwright-core's chromium.launch(); throws with the install command when missing. */
function launchOptions() {
  const executablePath = findChromium()
  if (!executablePath) {
    throw new Error(
      "Chromium not found. Install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH; `npm test` installs it when run as root."
    )
  }
  return { executablePath, args: [...LAUNCH_ARGS] }
}

module.exports = { ensureChromium, findChromium, launchOptions }

// `node scripts/lib/chromium.js`: installs it now (.ci/run starts this beside `npm install`).
if (require.main === module) {
  try {
    console.log(`Chromium: ${ensureChromium()}`)
  } catch (error) {
    console.error(error.message)
    process.exit(1)
  }
}
