/**
 * The suites that boot the default app (medusa-config.ts with the test environment of
 * integration-tests/setup.js, one default sandbox, and a 15 s bound on a start's question to
 * PayLater), on one boot instead of one each (integration-tests/helpers/shared-app.ts). Each suite is in default-app/ with what it proves
 * at its top. Each starts with the sandbox's webhooks going nowhere (describeOnOneApp), and points
 * them at the app itself when it needs them.
 */
import { integrationTestRunner } from "../helpers/runner"
import { useEnv } from "../helpers/env"
import { useSandbox } from "../helpers/sandbox"
import { describeOnOneApp } from "../helpers/shared-app"
import { setupQatar } from "./default-app/setup-qatar"
import { reports } from "./default-app/paylater-reports"
import { lookupTally } from "./default-app/paylater-lookup-tally"
import { storeSmoke } from "./default-app/store-smoke"
import { activity } from "./default-app/paylater-activity"
import { link } from "./default-app/paylater-link"
import { notifications } from "./default-app/paylater-notifications"

jest.setTimeout(180_000)

// The longest a start waits for PayLater's answer about the attempt it replaces (issue 34): on this
// shared machine under load, 3 s is not always enough to settle a link, and the tests are about the
// answer, not the speed (the bound's own branch is tested in paylater-link.ts with a status call that
// never answers). No suite here waits on the bound otherwise: the sandbox answers at once.
useEnv({
  PAYLATER_ELIGIBILITY_TIMEOUT_MS: "15000",
  // Medusa's Notification Module with its local provider on "feed" and "email", and one address to
  // tell (default-app/paylater-notifications.ts reads both channels); no other suite here reads a
  // notification.
  PAYLATER_TEST_NOTIFICATIONS: "feed,email",
  PAYLATER_NOTIFY_EMAILS: "ops@store.qa",
})
const paylater = useSandbox()

integrationTestRunner({
  testSuite: (options) =>
    describeOnOneApp(
      options,
      {
        // First: the refused-webhook counts it checks are kept in memory and written to the database
        // once a second, so a suite before it could leave refusals that land in its counts.
        "what needs a person reaches the merchant (notifications)": notifications,
        "the one-command Qatar set-up": (o) => setupQatar(o),
        "the funnel and finance reports": (o) => reports(o),
        "a refused store look-up in the funnel": lookupTally,
        "the harness's smoke test": storeSmoke,
        "the admin's PayLater activity of an order": activity,
        "the payment link": link,
      },
      paylater
    ),
})
