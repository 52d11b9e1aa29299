// Everything `npm run demo` can be told through the environment, read in one place so the rest of
// the demo never touches process.env. Defaults match what medusa-config.ts and the storefront expect
// (Medusa on 9000, storefront on 8000, PayLater sandbox on 4010).
const path = require("node:path")

const root = path.resolve(__dirname, "..", "..", "..")

function port(name, fallback) {
  const raw = process.env[name]
  if (raw === undefined || raw === "") return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 1 || value > 65535) {
    throw new Error(`${name}=${raw} is not a TCP port (1-65535)`)
  }
  return value
}

function flag(name) {
  return ["1", "true", "yes"].includes(String(process.env[name] ?? "").toLowerCase())
}

/** The sandbox's built-in credentials (README section 8), given to sandbox and store alike. */
const SANDBOX_CREDENTIALS = Object.freeze({
  clientId: "sandbox-client",
  clientSecret: "sandbox-secret",
  merchantId: "sandbox-merchant",
  webhookSecret: "sandbox-webhook-secret",
  outletId: "1000000061",
})

function readConfig(argv = process.argv.slice(2)) {
  const medusaPort = port("MEDUSA_PORT", 9000)
  const storefrontPort = port("STOREFRONT_PORT", 8000)
  const sandboxPort = port("PAYLATER_SANDBOX_PORT", 4010)
  // `localhost`, not 127.0.0.1: Medusa's CORS check compares origins literally, and the browser's
  // origin for the storefront is whatever is in its address bar.
  const backendUrl = `http://localhost:${medusaPort}`
  const storefrontUrl = `http://localhost:${storefrontPort}`
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`
  const tmp = path.join(root, ".tmp")

  return {
    root,
    ports: { medusa: medusaPort, storefront: storefrontPort, sandbox: sandboxPort },
    // Only used when no DATABASE_URL / DB_HOST is given; 0 lets the OS pick.
    pgPort: port("DEMO_PG_PORT", 0) || undefined,
    urls: {
      backend: backendUrl,
      admin: `${backendUrl}/app`,
      storefront: storefrontUrl,
      sandbox: sandboxUrl,
      shopperApp: `${sandboxUrl}/app?mobile=97451118021`,
      webhook: `${backendUrl}/paylater/webhooks`,
    },
    // The sandbox's built-in credentials, given to both sides explicitly so the banner can show them.
    paylater: SANDBOX_CREDENTIALS,
    paths: {
      pgData: path.resolve(process.env.DEMO_PG_DIR || path.join(tmp, "demo-pg")),
      state: path.resolve(process.env.DEMO_STATE_FILE || path.join(tmp, "demo-state.json")),
      // Beside the demo's own state: a restarted sandbox still knows the demo's earlier payments.
      sandboxState: path.resolve(
        process.env.DEMO_SANDBOX_STATE_FILE ||
          path.join(path.dirname(path.resolve(process.env.DEMO_STATE_FILE || path.join(tmp, "demo-state.json"))), "demo-sandbox-orders.json")
      ),
      logs: path.resolve(process.env.DEMO_LOG_DIR || path.join(tmp, "demo-logs")),
    },
    // Database name used on a server we did not create ourselves is part of DATABASE_URL; on the
    // embedded server (or DB_HOST) we create this one.
    databaseName: process.env.DEMO_DB_NAME || "medusa_paylater_demo",
    admin: {
      enabled: process.env.MEDUSA_ADMIN_DISABLED !== "true",
      email: process.env.DEMO_ADMIN_EMAIL || "admin@paylater-demo.local",
      password: process.env.DEMO_ADMIN_PASSWORD || "paylater-demo",
    },
    // --check: start everything, verify each service answers, stop, exit 0. For tests and CI.
    exitAfterReady: argv.includes("--check") || flag("DEMO_EXIT_AFTER_READY"),
    // Migrations are skipped on a warm start when nothing they depend on changed (see migrations.js).
    forceMigrate: process.env.DEMO_MIGRATE === "always",
    // --watch: `medusa develop` (restarts Medusa when a source file changes) for plugin work.
    watch: argv.includes("--watch"),
    // Children's output goes to log files; DEMO_VERBOSE=1 also streams it to the terminal.
    verbose: argv.includes("--verbose") || flag("DEMO_VERBOSE"),
  }
}

module.exports = { readConfig, SANDBOX_CREDENTIALS }
