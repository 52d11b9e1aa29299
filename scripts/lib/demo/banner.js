// The last thing `npm run demo` prints: every address a person needs, and how to stop.
function banner({ config, seeded, seconds }) {
  const { urls, admin, paylater } = config
  const rows = [
    ["Storefront", urls.storefront],
    admin.enabled
      ? ["Admin", `${urls.admin}   login ${admin.email} / ${admin.password}`]
      : ["Admin", "disabled (MEDUSA_ADMIN_DISABLED=true)"],
    ["Store API", `${urls.backend}   publishable key ${seeded.publishableKey}`],
    ["PayLater sandbox", urls.sandbox],
    ["Shopper app", `${urls.shopperApp}   (Request to Pay approvals; test shoppers 97451118021-25)`],
    ["Webhooks", `${urls.sandbox}/__sandbox/deliveries   (sent to ${urls.webhook})`],
    ["PayLater sandbox keys", `merchant id ${paylater.merchantId}, webhook secret ${paylater.webhookSecret}`],
    ["", `client ${paylater.clientId} / ${paylater.clientSecret}, outlet ${paylater.outletId}`],
  ]
  const width = Math.max(...rows.map(([k]) => k.length))
  const line = "=".repeat(78)
  return [
    "",
    line,
    `  PayLater demo is ready (${seconds} s)`,
    line,
    ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`),
    "",
    "  Try it: open the storefront, pick the 350 QAR variant, check out with PayLater and",
    "  approve on the sandbox page. The 100 QAR variant shows PayLater's minimum-amount error.",
    "  Sign a test webhook with the merchant id and webhook secret above (README section 4).",
    `  Logs: ${config.paths.logs}`,
    "  Press Ctrl-C to stop everything.",
    line,
    "",
  ].join("\n")
}

module.exports = { banner }
