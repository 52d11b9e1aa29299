/**
 * The suites that boot the app with the default limits (integration-tests/setup.js raises them for
 * every other spec; limits-app/paylater-limits.ts lowers two to reach them) and without Medusa's
 * Notification Module (PAYLATER_TEST_NOTIFICATIONS=off), on one boot instead of one each
 * (integration-tests/helpers/shared-app.ts). Neither suite depends on the other's setting: the
 * notifications-off checkout is one start, well inside every budget, and the limits' tests look at
 * no notification. The numeric merchantId suite needs a store that checks no merchant id, which
 * LIMITS_ENV gives. Each suite is in limits-app/ with what it proves at its top.
 */
import { integrationTestRunner } from "../helpers/runner"
import { useEnv } from "../helpers/env"
import { useSandbox } from "../helpers/sandbox"
import { describeOnOneApp } from "../helpers/shared-app"
import { limits, LIMITS_ENV } from "./limits-app/paylater-limits"
import { notificationsOff } from "./limits-app/notifications-off"
import { numericMerchantId } from "./limits-app/numeric-merchant-id"

jest.setTimeout(240_000)

useEnv({ ...LIMITS_ENV, PAYLATER_TEST_NOTIFICATIONS: "off" })
const paylater = useSandbox({ tokenLifetimeSeconds: 24 * 60 * 60 })

integrationTestRunner({
  testSuite: (options) =>
    describeOnOneApp(
      options,
      {
        "what a stranger can make PayLater do (limits)": limits,
        "a store without the Notification Module": notificationsOff,
        "a notification with a numeric merchantId (a store that checks no merchant id)": numericMerchantId,
      },
      paylater
    ),
})
