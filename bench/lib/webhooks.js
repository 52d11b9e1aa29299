// Signed PayLater notifications for load tests, made with the project's own signWebhook and the
// secret/merchant the bench server is configured with (medusa-config.ts defaults = the sandbox's).
const { registerTs } = require("./ts")

registerTs()
const { signWebhook } = require("../../src/lib/paylater/webhook.ts")
const { SANDBOX_DEFAULTS } = require("../../src/sandbox/index.ts")

/**
 * `count` distinct JSON bodies (distinct timestamps) cycling over `orderIds`.
 * @param {string[]} orderIds PayLater order ids (= Medusa payment session ids, or unknown ones)
 */
function signedBodies(orderIds, status, count) {
  const base = Date.now()
  return Array.from({ length: count }, (_, i) =>
    JSON.stringify(
      signWebhook(
        {
          merchantId: SANDBOX_DEFAULTS.merchantId,
          orderId: orderIds[i % orderIds.length],
          paylaterRef: `PLBENCH${i}`,
          status,
          timestamp: base + i,
          comments: status === "success" ? "Payment completed" : undefined,
        },
        SANDBOX_DEFAULTS.webhookSecret
      )
    )
  )
}

module.exports = { signedBodies }
