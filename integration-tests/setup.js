// Medusa's test runner and the core read these when first imported.
process.env.MEDUSA_DISABLE_TELEMETRY = "true"
// No background PayLater reconciliation runs while a test observes the store (a spec runs the
// workflow or the job function itself when it wants one).
process.env.PAYLATER_RECONCILE_SCHEDULE = process.env.PAYLATER_RECONCILE_SCHEDULE || "off"
// The in-process suites run on Medusa's in-memory modules; a REDIS_URL in the shell would switch
// medusa-config.ts to the Redis modules. The several-instances suite gets it as PAYLATER_TEST_REDIS_URL.
if (process.env.REDIS_URL) {
  process.env.PAYLATER_TEST_REDIS_URL = process.env.PAYLATER_TEST_REDIS_URL || process.env.REDIS_URL
  delete process.env.REDIS_URL
}
const { MetadataStorage } = require("@medusajs/framework/mikro-orm/core")
MetadataStorage.clear()
