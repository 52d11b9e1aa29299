/**
 * The unit suites of the store-side limits, registrations, point of sale, webhook slots,
 * notifications, the funnel's look-ups and the crash points, in one jest file: each of them loads
 * Medusa's framework (thousands of modules, about 3 s of CPU in jest's module registry), which a file
 * of its own loads again. Each suite is its `*.suite.ts`, required inside a describe of its own, so
 * its hooks are scoped to it as they were in its own file; what they share is the module registry
 * (none of them mocks a module). Run one with `-t "<its describe>"`.
 */
describe("limits: status-slot", () => { require("../limits/__tests__/status-slot.suite") })
describe("medusa-records: registrations", () => { require("../medusa-records/__tests__/registrations.suite") })
describe("medusa-records: session", () => { require("../medusa-records/__tests__/session.suite") })
describe("point-of-sale: request-state", () => { require("../point-of-sale/__tests__/request-state.suite") })
describe("signal-handlers: webhook-slots", () => { require("../signal-handlers/__tests__/webhook-slots.suite") })
describe("notifications: rules", () => { require("../notifications/__tests__/rules.suite") })
describe("notifications: channels", () => { require("../notifications/__tests__/channels.suite") })
describe("funnel: lookup-tally", () => { require("../funnel/__tests__/lookup-tally.suite") })
describe("api: abandoned store completion", () => { require("../api/store/carts/__tests__/abandoned-completion-cleanup.suite") })
describe("faults: crash-point", () => { require("../faults/__tests__/crash-point.suite") })
