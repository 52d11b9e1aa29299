// Starts the local PayLater sandbox with its own CLI (the same one `npm run sandbox` and
// `npx paylater-sandbox` run), its webhooks aimed at the demo store's webhook route.
const path = require("node:path")

function startSandbox({ config, supervisor, onUnexpectedExit }) {
  const tsNode = path.join(config.root, "node_modules", "ts-node", "dist", "bin.js")
  const args = [
    tsNode,
    "--transpile-only",
    path.join("src", "sandbox", "cli.ts"),
    "--port",
    String(config.ports.sandbox),
    "--webhook-url",
    config.urls.webhook,
    "--state-file",
    config.paths.sandboxState,
  ]
  const { paylater } = config
  const env = {
    ...process.env,
    PAYLATER_SANDBOX_CLIENT_ID: paylater.clientId,
    PAYLATER_SANDBOX_CLIENT_SECRET: paylater.clientSecret,
    PAYLATER_SANDBOX_MERCHANT_ID: paylater.merchantId,
    PAYLATER_SANDBOX_WEBHOOK_SECRET: paylater.webhookSecret,
    PAYLATER_SANDBOX_OUTLETS: paylater.outletId,
  }
  return supervisor.start("sandbox", process.execPath, args, { cwd: config.root, env, onUnexpectedExit })
}

module.exports = { startSandbox }
