/**
 * The suites that boot the app with a 1.5 s PayLater timeout and a sandbox whose tokens last a day,
 * on one boot instead of one each (integration-tests/helpers/shared-app.ts). Each suite is in
 * fast-timeout-app/ with what it proves at its top.
 */
import { integrationTestRunner } from "../helpers/runner"
import { useEnv } from "../helpers/env"
import { useSandbox } from "../helpers/sandbox"
import { describeOnOneApp } from "../helpers/shared-app"
import { crashPoints } from "./fast-timeout-app/paylater-crash-points"
import { neverDropped } from "./fast-timeout-app/paylater-never-dropped"
import { refundGuard } from "./fast-timeout-app/paylater-refund-guard"
import { refundedNeverOrdered } from "./fast-timeout-app/paylater-refunded-never-ordered"
import { halfMadeOrderPaidAgain } from "./fast-timeout-app/paylater-half-made-order-paid-again"
import { ledger } from "./fast-timeout-app/paylater-ledger"
import { orderOwner } from "./fast-timeout-app/paylater-order-owner"
import { whoseMoneyWhenActing } from "./fast-timeout-app/paylater-whose-money"
import { paidWithoutOrder } from "./fast-timeout-app/paylater-paid-without-order"
import { dueWorkNotStarved } from "./fast-timeout-app/paylater-paid-without-order-starvation"
import { completionRace } from "./fast-timeout-app/paylater-completion-race"
import { statusSlot } from "./fast-timeout-app/paylater-status-slot"
import { requestToPay } from "./fast-timeout-app/paylater-rtp"
import { soldOutRace } from "./fast-timeout-app/paylater-sold-out-race"

jest.setTimeout(240_000)

// A lost answer (a refund's, a status call's) then costs 1.5 s, not 15.
useEnv({ PAYLATER_TIMEOUT_MS: "1500" })
// Tokens outlive the sandbox clock's jumps (past the 10-minute refund window, past a link's asking
// window): a token expired by a jump would make a faulted call answer 401 inside the sandbox.
const paylater = useSandbox({ tokenLifetimeSeconds: 24 * 60 * 60 })

integrationTestRunner({
  testSuite: (options) =>
    describeOnOneApp(
      options,
      {
        "losses the fault campaign found, at their crash points": crashPoints,
        "nothing leaves the ledger unasked": neverDropped,
        "the refund guard and Settings → PayLater": refundGuard,
        "money PayLater gave back is never an order's": refundedNeverOrdered,
        "a half-made order is never paid twice": halfMadeOrderPaidAgain,
        "every PayLater payment accounted for": ledger,
        "a placed order's money stays with it": orderOwner,
        "whose money a payment is, decided at the moment of acting": whoseMoneyWhenActing,
        "money PayLater took with no order for it": paidWithoutOrder,
        "due work is not starved by older items": dueWorkNotStarved,
        "completion and the automatic refund race": completionRace,
        "Medusa's own completions and the status-call slot": statusSlot,
        "Request to Pay": requestToPay,
        "sold out while paying: the return and the notification together": soldOutRace,
      },
      paylater
    ),
})
