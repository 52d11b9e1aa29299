/**
 * The unit suites of settlement, the paid-without-order refunds, reconciliation's jobs, the ledger and
 * the admin's activity, in one jest file: each of them loads Medusa's framework (thousands of modules,
 * about 3 s of CPU in jest's module registry), which a file of its own loads again. Each suite is its
 * `*.suite.ts`, required inside a describe of its own, so its hooks are scoped to it as they were in
 * its own file; what they share is the module registry (none of them mocks a module). Run one with `-t
 * "<its describe>"`.
 */
describe("settlement: settle", () => { require("../settlement/__tests__/settle.suite") })
describe("paid-without-order: auto-refund-crash", () => { require("../paid-without-order/__tests__/auto-refund-crash.suite") })
describe("paid-without-order: current-items", () => { require("../paid-without-order/__tests__/current-items.suite") })
describe("paid-without-order: send-refund", () => { require("../paid-without-order/__tests__/send-refund.suite") })
describe("reconciliation: call-budget", () => { require("../reconciliation/__tests__/call-budget.suite") })
describe("reconciliation: schedule-watchdog", () => { require("../reconciliation/__tests__/schedule-watchdog.suite") })
describe("reconciliation: abandoned-refunds", () => { require("../reconciliation/__tests__/abandoned-refunds.suite") })
describe("modules/paylater-ledger: refund-ledger", () => { require("../modules/paylater-ledger/__tests__/refund-ledger.suite") })
describe("modules/paylater-ledger: paid-at", () => { require("../modules/paylater-ledger/__tests__/paid-at.suite") })
describe("activity: attempt-aftercare", () => { require("../activity/__tests__/attempt-aftercare.suite") })
describe("activity: timeline", () => { require("../activity/__tests__/timeline.suite") })
describe("activity: order-attempts", () => { require("../activity/__tests__/order-attempts.suite") })
