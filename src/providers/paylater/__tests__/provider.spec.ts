/**
 * The PayLater provider's unit suites, in one jest file: each of them loads Medusa's framework
 * (thousands of modules, about 3 s of CPU in jest's module registry), which a file of its own loads
 * again. Each suite is its `*.suite.ts`, required inside a describe of its own, so its hooks are
 * scoped to it as they were in its own file; what they share is the module registry (none of them
 * mocks a module). Run one with `-t "<its describe>"`.
 */
describe("providers/paylater: eligibility", () => { require("./eligibility.suite") })
describe("providers/paylater: http", () => { require("./http.suite") })
describe("providers/paylater: initiate", () => { require("./initiate.suite") })
describe("providers/paylater: options", () => { require("./options.suite") })
describe("providers/paylater: production-guard", () => { require("./production-guard.suite") })
describe("providers/paylater: refund-amount", () => { require("./refund-amount.suite") })
describe("providers/paylater: refund", () => { require("./refund.suite") })
describe("providers/paylater: registration", () => { require("./registration.suite") })
describe("providers/paylater: request-to-pay", () => { require("./request-to-pay.suite") })
describe("providers/paylater: status-slot", () => { require("./status-slot.suite") })
describe("providers/paylater: status", () => { require("./status.suite") })
describe("providers/paylater: stored-amount", () => { require("./stored-amount.suite") })
describe("providers/paylater: webhook", () => { require("./webhook.suite") })
