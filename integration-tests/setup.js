// Medusa's test runner and the core read these when first imported.
process.env.MEDUSA_DISABLE_TELEMETRY = "true"
// No background PayLater reconciliation runs while a test observes the store (a spec runs the
// workflow or the job function itself when it wants one).
process.env.PAYLATER_RECONCILE_SCHEDULE = process.env.PAYLATER_RECONCILE_SCHEDULE || "off"
// One app serves a whole spec file, and its specs reuse the sandbox's few test shoppers far more
// often than a shopper could: the store API's budgets (docs/security.md) are raised for them.
// limits-app.spec.ts puts the defaults back to test the budgets themselves.
// Every spec's requests come from one address (the per-client budget) and add up store-wide.
for (const name of ["PAYLATER_RTP_LIMIT_PER_MOBILE", "PAYLATER_RTP_LIMIT_PER_CART", "PAYLATER_LINK_LIMIT_PER_CART", "PAYLATER_START_LIMIT_PER_CLIENT", "PAYLATER_START_LIMIT_PER_MINUTE"]) {
  process.env[name] = process.env[name] || "1000"
}
// The in-process suites run on Medusa's in-memory modules; a REDIS_URL in the shell would switch
// medusa-config.ts to the Redis modules. The several-instances suite gets it as PAYLATER_TEST_REDIS_URL.
if (process.env.REDIS_URL) {
  process.env.PAYLATER_TEST_REDIS_URL = process.env.PAYLATER_TEST_REDIS_URL || process.env.REDIS_URL
  delete process.env.REDIS_URL
}
const { MetadataStorage } = require("@medusajs/framework/mikro-orm/core")
MetadataStorage.clear()
