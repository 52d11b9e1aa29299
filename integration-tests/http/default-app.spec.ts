/**
 * The suites that boot the default app (medusa-config.ts with the test environment of
 * integration-tests/setup.js, nothing of their own, one default sandbox), on one boot instead of one
 * each (integration-tests/helpers/shared-app.ts). Each suite is in default-app/ with what it proves
 * at its top. Those first that do not point the sandbox's webhooks at the app, so none of them
 * starts with webhooks it did not ask for.
 */
import { integrationTestRunner } from "../helpers/runner"
import { useSandbox } from "../helpers/sandbox"
import { describeOnOneApp } from "../helpers/shared-app"
import { setupQatar } from "./default-app/setup-qatar"
import { reports } from "./default-app/paylater-reports"
import { lookupTally } from "./default-app/paylater-lookup-tally"
import { storeSmoke } from "./default-app/store-smoke"
import { activity } from "./default-app/paylater-activity"

jest.setTimeout(180_000)

const paylater = useSandbox()

integrationTestRunner({
  testSuite: (options) =>
    describeOnOneApp(
      options,
      {
        "the one-command Qatar set-up": (o) => setupQatar(o),
        "the funnel and finance reports": (o) => reports(o),
        "a refused store look-up in the funnel": lookupTally,
        "the harness's smoke test": storeSmoke,
        "the admin's PayLater activity of an order": activity,
      },
      paylater
    ),
})
