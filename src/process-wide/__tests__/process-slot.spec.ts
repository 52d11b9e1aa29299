/**
 * Two copies of the package in one process (pnpm can make them): each copy has its own module
 * registry entry, so this loads the same files twice through jest.isolateModules, as two copies
 * would be loaded from two paths.
 */
type LedgerPortModule = typeof import("../../modules/paylater-ledger/ledger-port")
type RequestContextModule = typeof import("../../providers/paylater/request-context")

function loadCopy(): { port: LedgerPortModule; context: RequestContextModule } {
  let copy!: { port: LedgerPortModule; context: RequestContextModule }
  jest.isolateModules(() => {
    copy = {
      port: require("../../modules/paylater-ledger/ledger-port"),
      context: require("../../providers/paylater/request-context"),
    }
  })
  return copy
}

const SLOT = Symbol.for("medusa-payment-paylater.ledger-port.v1")

afterEach(() => {
  delete (globalThis as Record<symbol, unknown>)[SLOT]
})

describe("process-wide slots", () => {
  it("are distinct module instances (the premise: a module-level variable would be split)", () => {
    const [a, b] = [loadCopy(), loadCopy()]
    expect(a.port).not.toBe(b.port)
    expect(a.port.ledgerPort).not.toBe(b.port.ledgerPort)
  })

  it("the ledger one copy's module provides is the one the other copy's provider reads", () => {
    const [moduleCopy, providerCopy] = [loadCopy(), loadCopy()]
    expect(providerCopy.port.ledgerPort()).toBeNull()
    const ledger = { writeAhead: jest.fn() } as unknown as Parameters<LedgerPortModule["provideLedger"]>[0]
    moduleCopy.port.provideLedger(ledger)
    expect(providerCopy.port.ledgerPort()).toBe(ledger)
    expect(moduleCopy.port.ledgerPort()).toBe(ledger)
  })

  it("the payment collection one copy's middleware sets is the one the other copy's provider reads", async () => {
    const [middlewareCopy, providerCopy] = [loadCopy(), loadCopy()]
    const seen = await middlewareCopy.context.withPaymentCollection("pay_col_1", async () => {
      await new Promise((resolve) => setImmediate(resolve))
      return providerCopy.context.currentPaymentCollection()
    })
    expect(seen).toBe("pay_col_1")
    expect(providerCopy.context.currentPaymentCollection()).toBeNull()
  })
})
