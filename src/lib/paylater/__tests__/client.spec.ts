/**
 * The PayLater client's suites against nock, in one jest file: each loads nock, axios and the client
 * (about 2 s of CPU in jest's module registry), which a file of its own loads again. Each suite is its
 * `*.suite.ts`, required inside a describe of its own, so its hooks (useNock's included) are scoped
 * to it as they were in its own file. Run one with `-t "<its describe>"`.
 */
describe("lib/paylater: client.errors", () => { require("./client.errors.suite") })
describe("lib/paylater: client.logging", () => { require("./client.logging.suite") })
describe("lib/paylater: client.operations", () => { require("./client.operations.suite") })
describe("lib/paylater: client.resilience", () => { require("./client.resilience.suite") })
describe("lib/paylater: client.token", () => { require("./client.token.suite") })
describe("lib/paylater: client.validation", () => { require("./client.validation.suite") })
describe("lib/paylater: worst-case", () => { require("./worst-case.suite") })
