// Starts the demo storefront (demo/storefront/server.js) with the store's address and key, and the
// sandbox's address for the Request to Pay waiting screen's sandbox helper link.
const path = require("node:path")

function startStorefront({ config, seeded, supervisor, onUnexpectedExit }) {
  const env = {
    ...process.env,
    STOREFRONT_PORT: String(config.ports.storefront),
    MEDUSA_BACKEND_URL: config.urls.backend,
    MEDUSA_PUBLISHABLE_KEY: seeded.publishableKey,
    PAYLATER_SANDBOX_URL: config.urls.sandbox,
  }
  return supervisor.start("storefront", process.execPath, [path.join("demo", "storefront", "server.js")], {
    cwd: config.root,
    env,
    onUnexpectedExit,
  })
}

module.exports = { startStorefront }
