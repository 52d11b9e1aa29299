/**
 * The suites that boot the app with `paidWithoutOrder: "hold"` (a payment no order holds is listed
 * for a person and never refunded by itself), a 1.5 s PayLater timeout and a sandbox whose tokens
 * last a day, on one boot instead of one each (integration-tests/helpers/shared-app.ts). Each suite
 * is in hold-app/ with what it proves at its top; the default policy's twins are in fast-timeout-app/.
 */
import { integrationTestRunner } from "../helpers/runner"
import { useEnv } from "../helpers/env"
import { useSandbox } from "../helpers/sandbox"
import { describeOnOneApp } from "../helpers/shared-app"
import { lostRequestHeld } from "./hold-app/lost-request-held"
import { soldOutHeld } from "./hold-app/sold-out-held"

jest.setTimeout(240_000)

useEnv({ PAYLATER_PAID_WITHOUT_ORDER: "hold", PAYLATER_TIMEOUT_MS: "1500" })
const paylater = useSandbox({ tokenLifetimeSeconds: 24 * 60 * 60 })

integrationTestRunner({
  testSuite: (options) =>
    describeOnOneApp(
      options,
      {
        "a lost Request to Pay approved later, held": lostRequestHeld,
        "a sold-out payment, held": soldOutHeld,
      },
      paylater
    ),
})
