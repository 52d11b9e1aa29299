// The Medusa side of the demo: the CLI commands it runs (migrate, seed, create the admin user) and
// the long-running server. Every command runs through the supervisor, so Ctrl-C during a slow
// migration stops it as cleanly as it stops the server.
const path = require("node:path")

function medusaCli(root) {
  return path.join(root, "node_modules", "@medusajs", "cli", "cli.js")
}

/** The environment medusa-config.ts reads: everything points at the demo's own services. */
function medusaEnv(config, databaseUrl) {
  const { urls, ports } = config
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    MEDUSA_DISABLE_TELEMETRY: "true",
    PORT: String(ports.medusa),
    MEDUSA_BACKEND_URL: urls.backend,
    STOREFRONT_URL: urls.storefront,
    PAYLATER_API_BASE_URL: urls.sandbox,
    PAYLATER_CLIENT_ID: config.paylater.clientId,
    PAYLATER_CLIENT_SECRET: config.paylater.clientSecret,
    PAYLATER_MERCHANT_ID: config.paylater.merchantId,
    PAYLATER_WEBHOOK_SECRET: config.paylater.webhookSecret,
    PAYLATER_OUTLET_ID: config.paylater.outletId,
    STORE_CORS: urls.storefront,
    ADMIN_CORS: urls.backend,
    AUTH_CORS: `${urls.storefront},${urls.backend}`,
    MEDUSA_ADMIN_DISABLED: config.admin.enabled ? "false" : "true",
    // The admin dashboard is served by Vite's dev middleware in development mode (no build step);
    // see the note on `startServer` below.
    NODE_ENV: "development",
  }
  // medusa-config.ts reads DATABASE_URL only; these would just confuse a reader of the env.
  for (const name of ["DB_HOST", "DB_PORT", "DB_USERNAME", "DB_PASSWORD", "TEST_TYPE"]) delete env[name]
  return env
}

function createMedusa({ config, supervisor, databaseUrl }) {
  const cli = medusaCli(config.root)
  const env = medusaEnv(config, databaseUrl)
  const run = (name, args) => supervisor.run(name, process.execPath, [cli, ...args], { cwd: config.root, env })

  return {
    migrate: () => run("medusa-migrate", ["db:migrate"]),
    seed: () => run("medusa-seed", ["exec", "./demo/seed.ts"]),
    createAdminUser: ({ email, password }) => run("medusa-user", ["user", "-e", email, "-p", password]),

    /**
     * `medusa start` in development mode by default, not `medusa develop`: the same server (develop
     * forks exactly this command) without develop's file watcher, which restarts the server whenever
     * any file outside .medusa/node_modules changes, e.g. a test writing screenshots mid-checkout.
     * NODE_ENV=development makes it serve the admin through Vite's dev middleware, so no admin build
     * is needed (`medusa build --admin-only` takes ~45 s here, and `medusa start` in production
     * mode would then want the build copied into ./public/admin). `--watch` picks develop.
     */
    startServer: (onUnexpectedExit) =>
      supervisor.start(
        "medusa",
        process.execPath,
        [cli, config.watch ? "develop" : "start", "--port", String(config.ports.medusa)],
        { cwd: config.root, env, onUnexpectedExit }
      ),
  }
}

module.exports = { createMedusa, medusaEnv }
