/**
 * The pure rule modules of the money (the state decider, the money plan and its list step, whose
 * money a payment is) and reconciliation's choice of what to ask, in one jest file: the rules import
 * Medusa's framework (BigNumber, MathBN), which costs each jest file about 3 s of CPU in its module
 * registry, and these suites are otherwise milliseconds each. Each suite is its `*.suite.ts`, required
 * inside a describe of its own; none mocks a module. Run one with `-t "<its describe>"`.
 */
describe("modules/paylater-ledger: money-plan", () => { require("../modules/paylater-ledger/__tests__/money-plan.suite") })
describe("modules/paylater-ledger: list-step", () => { require("../modules/paylater-ledger/__tests__/list-step.suite") })
describe("modules/paylater-ledger: settlement-step", () => { require("../modules/paylater-ledger/__tests__/settlement-step.suite") })
describe("modules/paylater-ledger: whose-money", () => { require("../modules/paylater-ledger/__tests__/whose-money.suite") })
describe("modules/paylater-ledger: leftover-order", () => { require("../modules/paylater-ledger/__tests__/leftover-order.suite") })
describe("reconciliation: select", () => { require("../reconciliation/__tests__/select.suite") })
describe("reconciliation: fair-schedule", () => { require("../reconciliation/__tests__/fair-schedule.suite") })
