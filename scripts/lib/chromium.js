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

module.exports = { ensureChromium, findChromium }
