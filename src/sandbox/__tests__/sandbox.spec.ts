/**
 * The sandbox's suites (its HTTP API, pages, faults, persistence and CLI), in one jest file: each
 * loads the sandbox's server, axios and zod, which a file of its own loads again. Each suite is its
 * `*.suite.ts`, required inside a describe of its own, so its hooks are scoped to it as they were in
 * its own file. The browser suite (Chromium) keeps its own file. Run one with `-t "<its describe>"`.
 */
describe("sandbox: cli", () => { require("./cli.suite") })
describe("sandbox: control", () => { require("./control.suite") })
describe("sandbox: faults", () => { require("./faults.suite") })
describe("sandbox: lifecycle", () => { require("./lifecycle.suite") })
describe("sandbox: link", () => { require("./link.suite") })
describe("sandbox: money-pages", () => { require("./money-pages.suite") })
describe("sandbox: persist", () => { require("./persist.suite") })
describe("sandbox: rtp", () => { require("./rtp.suite") })
describe("sandbox: status-refund-shopper", () => { require("./status-refund-shopper.suite") })
describe("sandbox: token", () => { require("./token.suite") })
describe("sandbox: webhooks", () => { require("./webhooks.suite") })
